import { generatedHeader, toYaml } from '../../yaml.js';
import { withBlock, type Helpers } from './actions.js';
import type { HelmChartInput, Manifest } from './input.js';
import { replicasNeedLeaderElection, templateDeployment, type ManagerFacts } from './manager.js';
import { createSplicer, type Splicer } from './splice.js';
import { templateObject, type ReferencesAt, type Release } from './transform.js';

type Data = Record<string, unknown>;

/** One file under templates/: an object of the kustomize output, made the release's. */
export interface ChartTemplate {
  /** Path under templates/, e.g. `rbac/manager-role.yaml`. */
  path: string;
  content: string;
}

/**
 * The chart's templates, one file per object, in folders named like config/'s: crd, rbac,
 * manager, metrics, prometheus, network-policy, and extras for anything else. Each object
 * a value can turn off is wrapped in that value's `if`.
 */
export function chartTemplates(input: HelmChartInput, facts: ManagerFacts, helpers: Helpers): ChartTemplate[] {
  const objects = chartObjects(input);
  const serviceAccountName = facts.serviceAccount;
  const release: Release = {
    projectName: input.projectName,
    namespace: input.namespace,
    suffixes: new Map(
      objects
        .filter((o) => o.kind !== 'CustomResourceDefinition' && o.metadata.name.startsWith(input.namePrefix))
        .map((o) => [o.metadata.name, o.metadata.name.slice(input.namePrefix.length)]),
    ),
    serviceAccount: objects.some((o) => o.kind === 'ServiceAccount' && o.metadata.name === serviceAccountName) ? serviceAccountName : undefined,
    helpers,
  };
  const boundRoles = rolesBoundTo(objects, release.serviceAccount);

  const files = objects.map((object) => {
    const splicer = createSplicer();
    const plan = planFor(object, { objects, facts, release, boundRoles, splicer });
    const body = templateObject(plan.object, release, splicer, plan.referencesAt);
    const text = splicer.splice(toYaml([body]));
    const lines = [`{{- /* ${generatedHeader} Change config/ or values.yaml instead. */}}`, ...(plan.preamble ?? [])];
    if (plan.guard) lines.push(`{{- if ${plan.guard} }}`, text.trimEnd(), '{{- end }}');
    else lines.push(text.trimEnd());
    return { path: `${plan.folder}/${plan.stem}`, content: `${lines.join('\n')}\n` };
  });
  return withUniquePaths(files, objects);
}

interface Plan {
  folder: string;
  stem: string;
  object: Manifest;
  guard?: string;
  preamble?: readonly string[];
  referencesAt?: ReferencesAt;
}

interface PlanContext {
  objects: readonly Manifest[];
  facts: ManagerFacts;
  release: Release;
  boundRoles: ReadonlySet<string>;
  splicer: Splicer;
}

function planFor(object: Manifest, ctx: PlanContext): Plan {
  const { facts, release, splicer } = ctx;
  const stem = release.suffixes.get(object.metadata.name) ?? object.metadata.name;
  const metricsPort = (port: unknown) => (port === facts.metrics.port ? splicer.inline('{{ .Values.metrics.port }}') : port);
  switch (object.kind) {
    case 'CustomResourceDefinition':
      return {
        folder: 'crd',
        stem,
        guard: '.Values.crd.enable',
        // The schema is data; only a conversion webhook's Service is a reference.
        referencesAt: (path) => path[0] !== 'spec' || path.length === 1 || path[1] === 'conversion',
        object: withMetadata(object, {
          annotations: {
            ...object.metadata.annotations,
            [splicer.block(() => ['{{- if .Values.crd.keep }}', 'helm.sh/resource-policy: keep', '{{- end }}'])]: null,
          },
        }),
      };
    case 'ServiceAccount':
      if (object.metadata.name !== release.serviceAccount) break;
      return {
        folder: 'rbac',
        stem: 'service-account',
        guard: '.Values.serviceAccount.create',
        object: withMetadata(object, { [splicer.block(withBlock('.Values.serviceAccount.annotations', 'annotations'))]: null }),
      };
    case 'Role':
    case 'ClusterRole': {
      // Roles no binding of the chart uses are for the cluster's users (admin/editor/viewer per kind).
      const guard = isMetricsRole(object) ? metricsRbac : ctx.boundRoles.has(object.metadata.name) ? '.Values.rbac.create' : '.Values.rbac.helpers';
      return { folder: 'rbac', stem, guard, object };
    }
    case 'RoleBinding':
    case 'ClusterRoleBinding': {
      const roleRef = object.roleRef as Data | undefined;
      const role = ctx.objects.find((o) => o.kind === roleRef?.kind && o.metadata.name === roleRef?.name);
      return { folder: 'rbac', stem, guard: role && isMetricsRole(role) ? metricsRbac : '.Values.rbac.create', object };
    }
    case 'Deployment':
      if (object !== facts.deployment) break;
      return { folder: 'manager', stem: 'manager', preamble: replicasNeedLeaderElection, object: templateDeployment(facts, splicer) };
    case 'Service':
      if (!isMetricsService(object)) break;
      return {
        folder: 'metrics',
        stem,
        guard: '.Values.metrics.enable',
        object: {
          ...object,
          spec: {
            ...(object.spec as Data),
            ports: ((object.spec as Data).ports as Data[]).map((p) => ({ ...p, port: metricsPort(p.port), targetPort: metricsPort(p.targetPort) })),
          },
        },
      };
    case 'ServiceMonitor':
      return { folder: 'prometheus', stem, guard: 'and .Values.prometheus.enable .Values.metrics.enable', object };
    case 'NetworkPolicy':
      return {
        folder: 'network-policy',
        stem,
        guard: '.Values.networkPolicy.enable',
        object: mapIngressPorts(object, (p) => ({ ...p, port: metricsPort(p.port) })),
      };
  }
  return { folder: 'extras', stem, object };
}

/**
 * The objects the chart templates: config/default's, then the optional ones it does not
 * list, named and placed as config/default would. The Namespace goes: a release lives in
 * the namespace it is installed to (`helm install --namespace ... --create-namespace`).
 */
function chartObjects(input: HelmChartInput): Manifest[] {
  const listed = new Set(input.manifests.map((m) => m.kind));
  const optional = input.optional
    .filter((m) => !listed.has(m.kind))
    .map((m) =>
      withMetadata(m, {
        name: input.namePrefix + m.metadata.name,
        ...(m.metadata.namespace === undefined ? {} : { namespace: input.namespace }),
      }),
    );
  return [...input.manifests, ...optional].filter((m) => m.kind !== 'Namespace');
}

/** Roles and ClusterRoles that a binding of the chart grants to the manager's ServiceAccount. */
function rolesBoundTo(objects: readonly Manifest[], serviceAccount: string | undefined): Set<string> {
  const bound = new Set<string>();
  for (const binding of objects.filter((o) => o.kind === 'RoleBinding' || o.kind === 'ClusterRoleBinding')) {
    const subjects = Array.isArray(binding.subjects) ? (binding.subjects as Data[]) : [];
    const roleRef = binding.roleRef as Data | undefined;
    if (subjects.some((s) => s.kind === 'ServiceAccount' && s.name === serviceAccount) && typeof roleRef?.name === 'string') {
      bound.add(roleRef.name);
    }
  }
  return bound;
}

/** The RBAC of secure metrics goes with the metrics. */
const metricsRbac = 'and .Values.rbac.create .Values.metrics.enable';

/**
 * A role about /metrics only: reading it (for scrapers), or checking scrapers' tokens and
 * rights (TokenReview, SubjectAccessReview) as a manager serving it securely does.
 */
function isMetricsRole(role: Manifest): boolean {
  const rules = Array.isArray(role.rules) ? (role.rules as Data[]) : [];
  const reviews = ['tokenreviews', 'subjectaccessreviews'];
  const isAbout = (rule: Data) =>
    Array.isArray(rule.nonResourceURLs)
      ? rule.nonResourceURLs.every((url) => url === '/metrics')
      : Array.isArray(rule.resources) && rule.resources.every((r) => reviews.includes(String(r)));
  return rules.length > 0 && rules.every(isAbout);
}

/** The Service in front of the manager's /metrics. */
export function isMetricsService(service: Manifest): boolean {
  if (service.kind !== 'Service') return false;
  const ports = ((service.spec as Data | undefined)?.ports as Data[] | undefined) ?? [];
  return service.metadata.name.endsWith('metrics-service') || ports.some((p) => p.name === 'metrics');
}

function mapIngressPorts(policy: Manifest, map: (port: Data) => Data): Manifest {
  const spec = (policy.spec as Data | undefined) ?? {};
  const ingress = Array.isArray(spec.ingress) ? (spec.ingress as Data[]) : undefined;
  if (!ingress) return policy;
  return {
    ...policy,
    spec: { ...spec, ingress: ingress.map((rule) => (Array.isArray(rule.ports) ? { ...rule, ports: (rule.ports as Data[]).map(map) } : rule)) },
  };
}

function withMetadata(object: Manifest, changes: Data): Manifest {
  return { ...object, metadata: { ...object.metadata, ...changes } };
}

/** `<stem>.yaml`, or `<stem>-<kind>.yaml` for objects whose names would share a file. */
function withUniquePaths(files: { path: string; content: string }[], objects: readonly Manifest[]): ChartTemplate[] {
  const counts = new Map<string, number>();
  for (const f of files) counts.set(f.path, (counts.get(f.path) ?? 0) + 1);
  return files.map((f, i) => ({
    path: counts.get(f.path)! > 1 ? `${f.path}-${objects[i]!.kind.toLowerCase()}.yaml` : `${f.path}.yaml`,
    content: f.content,
  }));
}
