import { isMap, isScalar, isSeq, LineCounter } from 'yaml';
import { UserError } from '../../../errors.js';
import type { ProjectConfig } from '../../../project/model.js';
import { certificateMode } from '../../../project/webhooks.js';
import type { GeneratedFile } from '../../../writer/index.js';
import { conversionCrds, webhookObjectNames, webhookResources } from '../webhook.js';
import { kindNames } from '../names.js';
import { parseKustomization } from '../../../project/kustomization.js';
import { removeListItems } from './kustomize.js';
import { commonLabels, managerSelector, yamlFile } from '../yaml-file.js';
import { healthPort } from './manager.js';
import { webhookReplacements, webhookReplacementsFile } from './webhook-replacements.js';

/** The port the manager's webhook server listens on in the cluster (controller-runtime's default). */
export const webhookPort = 9443;
const rbacApi = 'rbac.authorization.k8s.io/v1';
const serviceAccountSubject = { kind: 'ServiceAccount', name: 'controller-manager', namespace: 'system' };

/** The files `config/rbac/kustomization.yaml` lists for the built-in webhook certificates. */
export const webhookRbacResources = ['webhook_certs_role.yaml', 'webhook_certs_role_binding.yaml'];

/** The entry of config/default/kustomization.yaml's `patches` that wires the webhook server into the manager. */
export const managerWebhookPatch = 'manager_webhook_patch.yaml';

/**
 * The readiness probe of a manager that serves conversions: the webhook server alone. Its
 * caches list the converted kinds through its own /convert, which the Service routes only
 * to ready pods, so a probe waiting for the caches (/readyz) would never pass.
 */
export const webhookReadinessProbe = { httpGet: { path: '/readyz/webhook', port: healthPort } };
export const webhookReadinessComment = [
  'The readiness probe is /readyz/webhook, the webhook server alone: the caches list the converted',
  'kinds through this manager\'s /convert, which the Service routes only to ready pods.',
];

/** Where cert-manager's Secret is mounted: controller-runtime's default certificate directory. */
const certDir = '/tmp/k8s-webhook-server/serving-certs';

/** A `patches` entry of a kustomization: a file, and the objects it applies to when not named in it. */
export interface PatchEntry {
  path: string;
  target?: { kind?: string; name?: string };
}

/**
 * The patches config/default/kustomization.yaml lists for the project's webhooks (none
 * without): the manager's webhook server, and with cert-manager the certificate's mount and the CA
 * injection into the webhook configurations and converted CRDs.
 */
export function defaultPatches(project: ProjectConfig): PatchEntry[] {
  if (webhookResources(project).length === 0) return [];
  if (certificateMode(project) === 'built-in') return [{ path: managerWebhookPatch }];
  const crds = conversionCrds(project);
  return [
    { path: managerWebhookPatch },
    { path: 'manager_webhook_cert_patch.yaml', target: { kind: 'Deployment', name: 'controller-manager' } },
    { path: 'webhook_ca_injection_patch.yaml', target: { kind: 'MutatingWebhookConfiguration|ValidatingWebhookConfiguration' } },
    ...(crds.length ? [{ path: 'webhook_ca_injection_patch.yaml', target: { kind: 'CustomResourceDefinition', name: crds.map((c) => c.replaceAll('.', '\\.')).join('|') } }] : []),
  ];
}

/** The folders config/default/kustomization.yaml lists for the project's webhooks (none without). */
export function defaultResources(project: ProjectConfig): string[] {
  if (webhookResources(project).length === 0) return [];
  return certificateMode(project) === 'cert-manager' ? ['../webhook', '../certmanager'] : ['../webhook'];
}

/** The kustomize configuration config/crd/kustomization.yaml needs for conversion webhooks. */
export const crdKustomizeConfig = 'kustomizeconfig.yaml';

/** The CRD patch that sends a kind's conversions to the manager, as config/crd/kustomization.yaml lists it. */
export function conversionPatchEntry(plural: string): string {
  return `patches/webhook_in_${plural}.yaml`;
}

/**
 * The config/ files of the project's webhooks, each written whole from PROJECT (never a
 * commented-out block uncommented later): the webhook Service, the manager's webhook port
 * and namespace, the RBAC of the built-in certificates (exactly its Secret, its own two
 * webhook configurations and its converted CRDs), and one conversion patch per converted CRD.
 */
export function webhookConfigFiles(project: ProjectConfig): GeneratedFile[] {
  const entries = webhookResources(project);
  if (entries.length === 0) return [];
  const admission = entries.some(({ webhooks }) => webhooks.defaulting || webhooks.validation);
  const conversion = entries.some(({ webhooks }) => webhooks.conversion);
  const labels = commonLabels(project.projectName);
  const names = webhookObjectNames(project.projectName);
  const generated = (path: string, content: string): GeneratedFile => ({ path, content, ownership: 'generated' });
  const certManager = certificateMode(project) === 'cert-manager';
  const files: GeneratedFile[] = [
    generated(
      'config/webhook/kustomization.yaml',
      yamlFile(
        ['Written by opgen create webhook from PROJECT. manifests.yaml is `npm run manifests`\'s, from the +kubebuilder:webhook markers.'],
        { resources: [...(admission ? ['manifests.yaml'] : []), 'service.yaml'] },
      ),
    ),
    generated(
      'config/webhook/service.yaml',
      yamlFile(['The API server reaches the manager\'s webhook server through this Service.'], {
        apiVersion: 'v1',
        kind: 'Service',
        metadata: { labels: { 'control-plane': 'controller-manager', ...labels }, name: 'webhook-service', namespace: 'system' },
        spec: {
          ports: [{ port: 443, protocol: 'TCP', targetPort: webhookPort }],
          selector: managerSelector(project.projectName),
        },
      }),
    ),
    generated(
      `config/default/${managerWebhookPatch}`,
      yamlFile(
        [
          'The manager\'s webhook server: its port; its namespace, where it keeps the built-in certificates',
          `(the Secret ${names.secret}); the names of its Service and webhook configurations, which`,
          'the certificates are for and go into. /readyz stays false until the server answers TLS.',
          ...(conversion ? webhookReadinessComment : []),
        ],
        {
          apiVersion: 'apps/v1',
          kind: 'Deployment',
          metadata: { name: 'controller-manager', namespace: 'system' },
          spec: {
            template: {
              spec: {
                containers: [
                  {
                    name: 'manager',
                    env: [
                      { name: 'POD_NAMESPACE', valueFrom: { fieldRef: { fieldPath: 'metadata.namespace' } } },
                      // The deployed names, which src/webhooks/setup.ts reads: a Helm release renames them.
                      { name: 'WEBHOOK_SERVICE_NAME', value: names.service },
                      ...(entries.some(({ webhooks }) => webhooks.defaulting) ? [{ name: 'MUTATING_WEBHOOK_CONFIGURATION', value: names.mutating }] : []),
                      ...(entries.some(({ webhooks }) => webhooks.validation) ? [{ name: 'VALIDATING_WEBHOOK_CONFIGURATION', value: names.validating }] : []),
                    ],
                    ports: [{ containerPort: webhookPort, name: 'webhook-server', protocol: 'TCP' }],
                    ...(conversion ? { readinessProbe: webhookReadinessProbe } : {}),
                    ...(certManager ? { volumeMounts: [{ mountPath: certDir, name: 'webhook-certs', readOnly: true }] } : {}),
                  },
                ],
                ...(certManager ? { volumes: [{ name: 'webhook-certs', secret: { secretName: 'webhook-server-cert' } }] } : {}),
              },
            },
          },
        },
      ),
    ),
    ...(certManager ? certManagerFiles(project) : certificateRbac(project)),
    generated(
      `config/default/${webhookReplacementsFile}`,
      yamlFile(
        [
          'Writes the names and namespace config/default gives the webhook objects where kustomize\'s',
          'namespace and namePrefix do not reach: change those two and this follows.',
        ],
        webhookReplacements(project, certificateClusterRules(project).map((rule) => rule.resources.join(','))),
      ),
    ),
  ];
  if (entries.some(({ webhooks }) => webhooks.conversion)) {
    files.push(
      generated(
        `config/crd/${crdKustomizeConfig}`,
        yamlFile(
          ['Tells kustomize that a CRD\'s conversion webhook names a Service, so config/default\'s name prefix reaches it.'],
          {
            nameReference: [
              {
                kind: 'Service',
                version: 'v1',
                fieldSpecs: [{ kind: 'CustomResourceDefinition', version: 'v1', group: 'apiextensions.k8s.io', path: 'spec/conversion/webhook/clientConfig/service/name' }],
              },
            ],
          },
        ),
      ),
    );
  }
  for (const { resource } of entries.filter(({ webhooks }) => webhooks.conversion)) {
    const crd = kindNames(project, resource);
    files.push(
      generated(
        `config/crd/${conversionPatchEntry(resource.plural)}`,
        yamlFile([`Sends conversions of ${resource.kind} between its versions to the manager's /convert.`], {
          apiVersion: 'apiextensions.k8s.io/v1',
          kind: 'CustomResourceDefinition',
          metadata: { name: `${resource.plural}.${crd.fullGroup}` },
          spec: {
            conversion: {
              strategy: 'Webhook',
              webhook: {
                clientConfig: { service: { name: 'webhook-service', namespace: 'system', path: '/convert' } },
                conversionReviewVersions: ['v1'],
              },
            },
          },
        }),
      ),
    );
  }
  return files;
}

/**
 * cert-manager mode, as kubebuilder's config/certmanager: a self-signed Issuer, the serving
 * Certificate for the webhook Service (its Secret mounted into the manager, which re-reads
 * it when cert-manager renews it), and the CA injected by cert-manager's cainjector.
 */
function certManagerFiles(project: ProjectConfig): GeneratedFile[] {
  const labels = commonLabels(project.projectName);
  const file = (path: string, content: string): GeneratedFile => ({ path, content, ownership: 'generated' });
  return [
    file('config/certmanager/kustomization.yaml', yamlFile(['cert-manager mode of the webhook certificates (needs cert-manager in the cluster).'], { resources: ['issuer.yaml', 'certificate.yaml'], configurations: ['kustomizeconfig.yaml'] })),
    file(
      'config/certmanager/issuer.yaml',
      yamlFile(['Signs the webhook\'s serving certificate itself: no CA outside the cluster.'], {
        apiVersion: 'cert-manager.io/v1',
        kind: 'Issuer',
        metadata: { labels, name: 'selfsigned-issuer', namespace: 'system' },
        spec: { selfSigned: {} },
      }),
    ),
    file(
      'config/certmanager/certificate.yaml',
      yamlFile(
        [
          'The webhook server\'s certificate, for its Service; cert-manager keeps it in the Secret the manager mounts.',
          `SERVICE_NAME and SERVICE_NAMESPACE are the Service's, written by config/default/${webhookReplacementsFile}.`,
        ],
        {
          apiVersion: 'cert-manager.io/v1',
          kind: 'Certificate',
          metadata: { labels, name: 'serving-cert', namespace: 'system' },
          spec: {
            dnsNames: ['SERVICE_NAME.SERVICE_NAMESPACE.svc', 'SERVICE_NAME.SERVICE_NAMESPACE.svc.cluster.local'],
            issuerRef: { kind: 'Issuer', name: 'selfsigned-issuer' },
            secretName: 'webhook-server-cert',
          },
        },
      ),
    ),
    file(
      'config/certmanager/kustomizeconfig.yaml',
      yamlFile(['Tells kustomize that a Certificate names its Issuer, so the name prefix reaches it.'], {
        nameReference: [{ kind: 'Issuer', group: 'cert-manager.io', fieldSpecs: [{ kind: 'Certificate', group: 'cert-manager.io', path: 'spec/issuerRef/name' }] }],
      }),
    ),
    file(
      'config/default/manager_webhook_cert_patch.yaml',
      yamlFile(['The manager serves the certificate cert-manager keeps in the mounted Secret.'], [
        { op: 'add', path: '/spec/template/spec/containers/0/args/-', value: `--webhook-cert-path=${certDir}` },
      ]),
    ),
    file(
      'config/default/webhook_ca_injection_patch.yaml',
      yamlFile(
        [
          'cert-manager\'s cainjector writes the Certificate\'s CA into the objects this patch targets (see kustomization.yaml).',
          `CERTIFICATE_NAMESPACE and CERTIFICATE_NAME are the Certificate's, written by ${webhookReplacementsFile}.`,
        ],
        {
          apiVersion: 'v1',
          kind: 'Targeted',
          metadata: { name: 'targeted', annotations: { 'cert-manager.io/inject-ca-from': 'CERTIFICATE_NAMESPACE/CERTIFICATE_NAME' } },
        },
      ),
    ),
  ];
}

/**
 * What the built-in certificates need and nothing more: create its Secret (creation cannot
 * be limited to a name) and read and rewrite that one Secret, in the manager's namespace;
 * read and rewrite the caBundle of its own webhook configurations and converted CRDs.
 */
function certificateRbac(project: ProjectConfig): GeneratedFile[] {
  const labels = commonLabels(project.projectName);
  const names = webhookObjectNames(project.projectName);
  const clusterRules = certificateClusterRules(project);
  const role = { apiGroup: 'rbac.authorization.k8s.io' };
  return [
    {
      path: 'config/rbac/webhook_certs_role.yaml',
      ownership: 'generated',
      content: yamlFile(
        [
          'The built-in webhook certificates: the manager keeps its CA and serving certificate in one Secret',
          'of its namespace and writes the CA into its own webhook configurations and converted CRDs.',
          'Written by opgen create webhook from PROJECT; names are those config/default gives the objects.',
        ],
        {
          apiVersion: rbacApi,
          kind: 'Role',
          metadata: { labels, name: 'webhook-certs-role', namespace: 'system' },
          rules: [
            { apiGroups: [''], resources: ['secrets'], verbs: ['create'] },
            { apiGroups: [''], resourceNames: [names.secret], resources: ['secrets'], verbs: ['get', 'update'] },
          ],
        },
        { apiVersion: rbacApi, kind: 'ClusterRole', metadata: { labels, name: 'webhook-certs-role' }, rules: clusterRules },
      ),
    },
    {
      path: 'config/rbac/webhook_certs_role_binding.yaml',
      ownership: 'generated',
      content: yamlFile(
        [],
        {
          apiVersion: rbacApi,
          kind: 'RoleBinding',
          metadata: { labels, name: 'webhook-certs-rolebinding', namespace: 'system' },
          roleRef: { ...role, kind: 'Role', name: 'webhook-certs-role' },
          subjects: [serviceAccountSubject],
        },
        {
          apiVersion: rbacApi,
          kind: 'ClusterRoleBinding',
          metadata: { labels, name: 'webhook-certs-rolebinding' },
          roleRef: { ...role, kind: 'ClusterRole', name: 'webhook-certs-role' },
          subjects: [serviceAccountSubject],
        },
      ),
    },
  ];
}

/**
 * The certificate ClusterRole's rules: get and update of its own webhook configurations (the
 * names are config/default's, rewritten by its replacements) and converted CRDs.
 */
function certificateClusterRules(project: ProjectConfig) {
  const names = webhookObjectNames(project.projectName);
  const entries = webhookResources(project);
  const crds = conversionCrds(project);
  return [
    ...(entries.some(({ webhooks }) => webhooks.defaulting)
      ? [{ apiGroups: ['admissionregistration.k8s.io'], resourceNames: [names.mutating], resources: ['mutatingwebhookconfigurations'], verbs: ['get', 'update'] }]
      : []),
    ...(entries.some(({ webhooks }) => webhooks.validation)
      ? [{ apiGroups: ['admissionregistration.k8s.io'], resourceNames: [names.validating], resources: ['validatingwebhookconfigurations'], verbs: ['get', 'update'] }]
      : []),
    ...(crds.length ? [{ apiGroups: ['apiextensions.k8s.io'], resourceNames: crds, resources: ['customresourcedefinitions'], verbs: ['get', 'update'] }] : []),
  ];
}

/**
 * Adds each of `paths` that is missing to the `patches` list of a kustomization.yaml (as
 * `- path: <file>`), keeping everything else in the file.
 */
export function addPatches(text: string, patches: readonly (string | PatchEntry)[], file: string): string {
  const entries = patches.map((patch) => (typeof patch === 'string' ? { path: patch } : patch));
  return addListItems(text, 'patches', entries, (item) => (isMap(item) ? patchKey(item.toJSON() as PatchEntry) : undefined), patchKey, file);
}

/** Adds each of `entries` that is missing to the `replacements` list of a kustomization.yaml (as `- path: <file>`). */
export function addReplacements(text: string, entries: readonly { path: string }[], file: string): string {
  return addListItems(text, 'replacements', entries, (item) => (isMap(item) ? String(item.get('path')) : undefined), (entry) => entry.path, file);
}

/** Takes each of `entries` out of the `replacements` list of a kustomization.yaml; the inverse of {@link addReplacements}. */
export function removeReplacements(text: string, entries: readonly { path: string }[], file: string): string {
  const paths = new Set(entries.map((entry) => entry.path));
  return removeListItems(text, 'replacements', (item) => isMap(item) && paths.has(String(item.get('path'))), file);
}

/** Adds each of `files` that is missing to the `configurations` list of a kustomization.yaml. */
export function addConfigurations(text: string, files: readonly string[], file: string): string {
  return addListItems(text, 'configurations', files, (item) => (isScalar(item) ? String(item.value) : undefined), (entry) => entry, file);
}

/** Takes each of `patches` out of the `patches` list of a kustomization.yaml; the inverse of {@link addPatches}. */
export function removePatches(text: string, patches: readonly (string | PatchEntry)[], file: string): string {
  const keys = new Set(patches.map((patch) => patchKey(typeof patch === 'string' ? { path: patch } : patch)));
  return removeListItems(text, 'patches', (item) => isMap(item) && keys.has(patchKey(item.toJSON() as PatchEntry)), file);
}

/** Takes each of `files` out of the `configurations` list of a kustomization.yaml; the inverse of {@link addConfigurations}. */
export function removeConfigurations(text: string, files: readonly string[], file: string): string {
  return removeListItems(text, 'configurations', (item) => isScalar(item) && files.includes(String(item.value)), file);
}

function patchKey(entry: { path: unknown; target?: unknown }): string {
  return JSON.stringify([entry.path, entry.target ?? null]);
}

function addListItems<T>(text: string, key: string, entries: readonly T[], keyOfItem: (item: unknown) => string | undefined, keyOfEntry: (entry: T) => string, file: string): string {
  const lineCounter = new LineCounter();
  const doc = parseKustomization(text, file, lineCounter);
  if (!isMap(doc.contents)) throw new UserError('expected a kustomization (a mapping of keys to values)', { file });
  let list: unknown = doc.get(key, true);
  if (list === undefined || (isScalar(list) && list.value === null)) {
    list = doc.createNode([]);
    doc.set(key, list);
  }
  if (!isSeq(list)) {
    const { line, col } = lineCounter.linePos((list as { range?: number[] }).range?.[0] ?? 0);
    throw new UserError(`"${key}" must be a list`, { file, line, column: col });
  }
  const present = new Set(list.items.map(keyOfItem));
  const missing = entries.filter((entry) => !present.has(keyOfEntry(entry)));
  if (missing.length === 0) return text;
  for (const entry of missing) list.add(doc.createNode(entry));
  list.flow = false;
  return doc.toString({ lineWidth: 0, indentSeq: true });
}
