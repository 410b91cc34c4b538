import { UserError, UserErrors } from '../errors.js';
import type { GeneratedFile } from '../writer/index.js';
import { toYaml } from '../yaml.js';
import { baseCsvPath, initialBaseCsv, installModeTypes, readBaseCsv, type Csv } from './base-csv.js';
import { buildCsv } from './csv.js';
import { almExamples, type MissingSample } from './examples.js';
import { manifestFileName, supportedKinds } from './files.js';
import type { BundleInputs } from './inputs.js';
import { foldInstall, type InstallStrategy } from './install.js';
import { annotationsFile, bundleDockerfile, type BundleMetadata } from './metadata.js';
import { describeObject, type KubeObject } from './objects.js';
import { ownedEntries, type OwnedCrd } from './owned.js';
import { createdResources } from './resources.js';
import { foldWebhooks } from './webhooks.js';

/** The flags of `opgen bundle`. */
export interface BundleOptions {
  version?: string;
  channels?: string;
  defaultChannel?: string;
  packageName?: string;
}

/** What `opgen bundle` writes, and what it noticed but did not stop for. */
export interface BundlePlan {
  files: GeneratedFile[];
  warnings: UserError[];
}

/** The directory the bundle is written to, under the project root. */
export const bundleDir = 'bundle';

const semver = /^(0|[1-9]\d*)\.(0|[1-9]\d*)\.(0|[1-9]\d*)(?:-[0-9A-Za-z.-]+)?(?:\+[0-9A-Za-z.-]+)?$/;
const dnsLabel = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/;

/**
 * The files of an OLM registry+v1 bundle for the project: bundle/manifests (the CSV, the
 * CRDs, and the objects OLM installs as they are), bundle/metadata/annotations.yaml,
 * bundle.Dockerfile, and the base CSV when the project has none yet. Everything missing
 * for the CSV (a kind's sample or description, the operator's description) is reported at
 * once, and then nothing is written. A kind the base CSV describes but the project no longer
 * has is a warning: its entry stays in the base and leaves the bundle.
 */
export async function bundleFiles(root: string, inputs: BundleInputs, options: BundleOptions): Promise<BundlePlan> {
  const { project, objects, samples } = inputs;
  const { version, ...meta } = publication(inputs, options);
  const { packageName } = meta;

  const basePath = baseCsvPath(project.projectName);
  const existingBase = await readBaseCsv(root, basePath);
  const base = existingBase ?? initialBaseCsv({ projectName: project.projectName, domain: project.domain, description: inputs.packageJson.description });

  const crds = objects.filter((o) => o.kind === 'CustomResourceDefinition').sort(byName);
  if (!crds.length) throw new UserError('config/default renders no CustomResourceDefinition: add an API (opgen create api) and run opgen manifests');
  const install = foldInstall(objects);
  const webhooks = foldWebhooks(objects, crds, install.deploymentName);
  // OLM installs an operator that converts CRDs (cluster-wide) only for all namespaces.
  if (!existingBase && webhooks.definitions.some((d) => d.type === 'ConversionWebhook')) {
    base.spec.installModes = installModeTypes.map((type) => ({ type, supported: type === 'AllNamespaces' }));
  }
  const missingSamples: MissingSample[] = [];
  const examples = almExamples(samples, crds, missingSamples);
  const csv = buildCsv(base, {
    packageName,
    version,
    install: install.install,
    owned: withResources(crds.flatMap(ownedEntries), crds.length, install.install),
    webhooks: webhooks.definitions,
    almExamples: examples,
  });
  const owned = (csv.spec.customresourcedefinitions as { owned: OwnedCrd[] }).owned;
  reportMissing(inputs, basePath, existingBase !== undefined, missingSamples, owned, csv.spec.description);

  const rest = objects.filter((o) => o.kind !== 'CustomResourceDefinition' && o.kind !== 'Namespace' && !install.folded.has(o) && !webhooks.folded.has(o));
  const unsupported = rest.filter((o) => !supportedKinds.has(o.kind));
  if (unsupported.length) {
    throw new UserErrors(
      unsupported.map((o) => new UserError(`config/default renders ${describeObject(o)}, which an OLM registry+v1 bundle cannot carry: leave it out of config/default, or ship it another way`)),
    );
  }
  const manifests = [...crds, ...rest.map(withoutNamespace)].map((o) => manifest(manifestFileName(o), o));
  const files: GeneratedFile[] = [
    manifest(`${packageName}.clusterserviceversion.yaml`, csv),
    ...manifests,
    { path: `${bundleDir}/metadata/annotations.yaml`, content: toYaml([annotationsFile(meta)]), ownership: 'generated' },
    { path: 'bundle.Dockerfile', content: bundleDockerfile(meta), ownership: 'generated' },
  ];
  if (!existingBase) files.push({ path: basePath, content: toYaml([base]), ownership: 'once' });
  const webhookWarnings = webhooks.lost.map((message) => new UserError(message, { file: 'config/webhook/manifests.yaml' }));
  return { files, warnings: [...kindsGone(base, owned, basePath), ...webhookWarnings] };
}

/** The version, package and channels from the flags (package.json's version by default), checked. */
function publication(inputs: BundleInputs, options: BundleOptions): BundleMetadata & { version: string } {
  const version = options.version ?? inputs.packageJson.version ?? '0.0.1';
  if (!semver.test(version)) throw new UserError(`version ${JSON.stringify(version)} is not a semantic version (such as 0.1.0)`);
  const packageName = options.packageName ?? inputs.project.projectName;
  if (!dnsLabel.test(packageName)) throw new UserError(`package name ${JSON.stringify(packageName)} must be lower-case letters, digits and dashes`);
  const channels = (options.channels ?? 'alpha').split(',').map((c) => c.trim());
  if (channels.some((c) => !c)) throw new UserError(`--channels ${JSON.stringify(options.channels)} has an empty channel name`);
  if (options.defaultChannel && !channels.includes(options.defaultChannel)) {
    throw new UserError(`--default-channel ${options.defaultChannel} is not one of the channels (${channels.join(', ')})`);
  }
  return { version, packageName, channels, defaultChannel: options.defaultChannel };
}

/** The base CSV's owned kinds that the bundle no longer has, as warnings at the base. */
function kindsGone(base: Csv, owned: readonly OwnedCrd[], basePath: string): UserError[] {
  const described = (base.spec.customresourcedefinitions as { owned?: OwnedCrd[] } | undefined)?.owned ?? [];
  return described
    .filter((b) => !owned.some((e) => e.name === b.name && e.version === b.version))
    .map((b) => new UserError(`spec.customresourcedefinitions.owned describes ${b.name} ${b.version}, which config/default does not render: left out of the bundle`, { file: basePath }));
}

/**
 * With one kind, every built-in kind the manager may create is that kind's: its owned entry
 * lists them. With several, which kind's controller creates what is not in the RBAC, so the
 * base CSV says it (the scorecard's olm-crds-have-resources asks for it).
 */
function withResources(owned: OwnedCrd[], kinds: number, install: InstallStrategy): OwnedCrd[] {
  if (kinds !== 1) return owned;
  const resources = createdResources([...(install.spec.clusterPermissions ?? []), ...(install.spec.permissions ?? [])]);
  return resources.length ? owned.map((entry) => ({ ...entry, resources })) : owned;
}

function manifest(name: string, object: unknown): GeneratedFile {
  return { path: `${bundleDir}/manifests/${name}`, content: toYaml([object]), ownership: 'generated' };
}

/** OLM installs the objects into the namespace the operator is installed in. */
function withoutNamespace(object: KubeObject): KubeObject {
  const { namespace: _ignored, ...metadata } = object.metadata;
  return { ...object, metadata };
}

function byName(a: KubeObject, b: KubeObject): number {
  return a.metadata.name < b.metadata.name ? -1 : a.metadata.name > b.metadata.name ? 1 : 0;
}

function reportMissing(
  inputs: BundleInputs,
  basePath: string,
  baseExists: boolean,
  samples: readonly MissingSample[],
  owned: readonly OwnedCrd[],
  description: unknown,
): void {
  const problems: UserError[] = [];
  for (const s of samples) {
    problems.push(new UserError(`no sample of ${s.kind} (${s.apiVersion}) for the CSV's alm-examples`, { file: 'config/samples/kustomization.yaml' }, 'add one to config/samples and list it there'));
  }
  for (const entry of owned.filter((e) => !e.description)) {
    const resource = inputs.project.resources.find((r) => r.kind === entry.kind && r.version === entry.version);
    problems.push(
      new UserError(
        `${entry.kind} (${entry.version}) has no description for the CSV`,
        resource?.path ? { file: resource.path } : undefined,
        `write a doc comment above class ${entry.kind} and run opgen manifests, or set it under spec.customresourcedefinitions.owned in ${basePath}`,
      ),
    );
  }
  if (typeof description !== 'string' || !description.trim()) {
    problems.push(
      baseExists
        ? new UserError('spec.description is empty: say what the operator does', { file: basePath })
        : new UserError('the operator has no description for the CSV', { file: 'package.json' }, `set "description" in package.json, or write ${basePath}`),
    );
  }
  if (problems.length) throw new UserErrors(problems);
}
