// Generates the Kubernetes built-in types API files import from `@opgen/runtime/api`
// (PodTemplateSpec, Container, Toleration, …) from the pinned OpenAPI schemas in
// hack/openapi/kubernetes-openapi.json, and the table `opgen manifests` reads to map each of
// them back to its definition. JSON-shaped: what the API server sends and accepts, so
// timestamps and quantities are strings, not the client library's classes.
//
//   node hack/api-types/generate.mjs           rewrite both files
//   node hack/api-types/generate.mjs --check   exit 1 if either is stale
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const path = (relative) => fileURLToPath(new URL(`../../${relative}`, import.meta.url));
const dataFile = path('hack/openapi/kubernetes-openapi.json');
const typesFile = path('runtime/src/api/kubernetes.ts');
const namesFile = path('src/schema/runtime-kubernetes.ts');

/** The types an operator's API commonly embeds; what they refer to comes along. */
const roots = [
  ...['PodTemplateSpec', 'PodSpec', 'Container', 'ContainerPort', 'EnvVar', 'EnvFromSource', 'ResourceRequirements']
    .concat(['Toleration', 'Taint', 'Affinity', 'NodeSelector', 'Volume', 'VolumeMount', 'SecurityContext'])
    .concat(['PodSecurityContext', 'Probe', 'Lifecycle', 'TopologySpreadConstraint', 'PersistentVolumeClaimSpec'])
    .concat(['PersistentVolumeClaimTemplate', 'ServicePort', 'ServiceSpec', 'SecretKeySelector', 'ConfigMapKeySelector'])
    .concat(['SecretReference', 'TypedLocalObjectReference', 'KeyToPath', 'HTTPGetAction', 'ResourceClaim'])
    .map((kind) => `io.k8s.api.core.v1.${kind}`),
  ...['JobTemplateSpec', 'JobSpec', 'CronJobSpec'].map((kind) => `io.k8s.api.batch.v1.${kind}`),
  ...['DeploymentSpec', 'DeploymentStrategy', 'StatefulSetSpec', 'DaemonSetSpec'].map((kind) => `io.k8s.api.apps.v1.${kind}`),
  ...['PolicyRule', 'Subject', 'RoleRef'].map((kind) => `io.k8s.api.rbac.v1.${kind}`),
  ...['LabelSelector', 'LabelSelectorRequirement'].map((kind) => `io.k8s.apimachinery.pkg.apis.meta.v1.${kind}`),
  // The kinds `kinds.*` of @opgen/runtime name (runtime/src/client/kinds.ts): one type universe,
  // so a CRD's embedded PodTemplateSpec goes into a kinds.Deployment as it is.
  ...kindRoots({
    'core.v1': ['Pod', 'Service', 'ConfigMap', 'Secret', 'PersistentVolumeClaim', 'PersistentVolume', 'ServiceAccount', 'Namespace', 'Node'],
    'apps.v1': ['Deployment', 'StatefulSet', 'DaemonSet', 'ReplicaSet'],
    'batch.v1': ['Job', 'CronJob'],
    'coordination.v1': ['Lease'],
    'events.v1': ['Event'],
    'networking.v1': ['Ingress', 'NetworkPolicy'],
    'discovery.v1': ['EndpointSlice'],
    'rbac.v1': ['Role', 'RoleBinding', 'ClusterRole', 'ClusterRoleBinding'],
    'policy.v1': ['PodDisruptionBudget'],
    'autoscaling.v2': ['HorizontalPodAutoscaler'],
  }),
  'io.k8s.apiextensions-apiserver.pkg.apis.apiextensions.v1.CustomResourceDefinition',
];

/** `io.k8s.api.<group>.<version>.<Kind>` for each kind of each `group.version`. */
function kindRoots(byGroupVersion) {
  return Object.entries(byGroupVersion).flatMap(([groupVersion, kinds]) => kinds.map((kind) => `io.k8s.api.${groupVersion}.${kind}`));
}

/** Definitions @opgen/runtime/api already declares by hand (runtime/src/api/meta.ts). */
const handWritten = {
  'io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta': 'ObjectMeta',
  'io.k8s.apimachinery.pkg.apis.meta.v1.ListMeta': 'ListMeta',
  'io.k8s.apimachinery.pkg.apis.meta.v1.OwnerReference': 'OwnerReference',
  'io.k8s.apimachinery.pkg.apis.meta.v1.ManagedFieldsEntry': 'ManagedFieldsEntry',
  'io.k8s.apimachinery.pkg.apis.meta.v1.Condition': 'Condition',
  'io.k8s.apimachinery.pkg.apis.meta.v1.Time': 'Time',
  'io.k8s.apimachinery.pkg.apis.meta.v1.MicroTime': 'MicroTime',
  'io.k8s.apimachinery.pkg.apis.meta.v1.Duration': 'Duration',
  'io.k8s.apimachinery.pkg.api.resource.Quantity': 'Quantity',
  'io.k8s.apimachinery.pkg.util.intstr.IntOrString': 'IntOrString',
  'io.k8s.apimachinery.pkg.runtime.RawExtension': 'RawExtension',
  'io.k8s.api.core.v1.ObjectReference': 'ObjectReference',
  'io.k8s.api.core.v1.LocalObjectReference': 'LocalObjectReference',
};

const { kubernetesVersion, schemas } = JSON.parse(readFileSync(dataFile, 'utf8'));
const refName = (ref) => ref.slice(ref.lastIndexOf('/') + 1);
const kindOf = (definition) => definition.slice(definition.lastIndexOf('.') + 1);

/** Every definition the roots reach, minus the hand-written ones, each under its kind name. */
function closure() {
  const found = new Map();
  const visit = (definition) => {
    if (definition in handWritten || found.has(definition)) return;
    const schema = schemas[definition];
    if (!schema) throw new Error(`${definition} is not in ${dataFile}`);
    found.set(definition, kindOf(definition));
    for (const ref of refsOf(schema)) visit(ref);
  };
  roots.forEach(visit);
  const byName = new Map();
  for (const [definition, name] of found) {
    if (byName.has(name)) throw new Error(`${definition} and ${byName.get(name)} would both be ${name}`);
    byName.set(name, definition);
  }
  return new Map([...found].sort(([, a], [, b]) => (a < b ? -1 : a > b ? 1 : 0)));
}

function refsOf(schema) {
  const refs = [];
  const walk = (node) => {
    if (!node || typeof node !== 'object') return;
    if (typeof node.$ref === 'string') refs.push(refName(node.$ref));
    for (const value of Object.values(node)) walk(value);
  };
  walk(schema);
  return refs;
}

const nameOf = (definition) => handWritten[definition] ?? kindOf(definition);

function typeOf(schema) {
  const ref = schema.$ref ?? (schema.allOf?.length === 1 ? schema.allOf[0].$ref : undefined);
  if (ref) return nameOf(refName(ref));
  switch (schema.type) {
    case 'string':
      if (schema.format === 'byte') return 'Bytes';
      if (schema.format === 'date-time') return 'Time';
      return 'string';
    case 'integer':
      return schema.format === 'int32' ? 'int32' : schema.format === 'int64' ? 'int64' : 'integer';
    case 'number':
      return 'number';
    case 'boolean':
      return 'boolean';
    case 'array':
      return `${typeOf(schema.items)}[]`;
    case 'object':
      if (schema.additionalProperties && typeof schema.additionalProperties === 'object') {
        return `Record<string, ${typeOf(schema.additionalProperties)}>`;
      }
      return '{ [key: string]: JSONValue }';
    default:
      return 'JSONValue';
  }
}

function doc(description, indent) {
  if (!description) return '';
  const lines = description.replaceAll('*/', '*\\/').trimEnd().split('\n');
  return `${indent}/**\n${lines.map((line) => `${indent} *${line ? ` ${line}` : ''}`.trimEnd()).join('\n')}\n${indent} */\n`;
}

function declaration(definition, name) {
  const schema = schemas[definition];
  const header = doc(`${schema.description ?? name}\n\n\`${definition}\``, '');
  if (!schema.properties) return `${header}export type ${name} = ${typeOf(schema)};\n`;
  const required = new Set(schema.required ?? []);
  const fields = Object.keys(schema.properties)
    .sort()
    .map((field) => {
      const property = schema.properties[field];
      const key = /^[A-Za-z_$][\w$]*$/.test(field) ? field : JSON.stringify(field);
      return `${doc(property.description, '  ')}  ${key}${required.has(field) ? '' : '?'}: ${typeOf(property)};\n`;
    });
  return `${header}export interface ${name} {\n${fields.join('')}}\n`;
}

const types = closure();
const declarations = [...types].map(([definition, name]) => declaration(definition, name));
// The hand-written types of meta.ts that the declarations name (in code, not in doc comments), and only those.
const code = declarations.map((text) => text.replace(/\/\*\*[\s\S]*?\*\//g, ''));
const imports = ['Bytes', 'int32', 'int64', 'integer', 'JSONValue', ...Object.values(handWritten)]
  .filter((name) => code.some((text) => new RegExp(`: (Record<string, )?${name}\\b`).test(text)))
  .sort((a, b) => a.localeCompare(b));
const generated = '// Generated by hack/api-types/generate.mjs from hack/openapi/kubernetes-openapi.json: do not edit.\n';

const typesContent = `${generated}/**
 * Kubernetes ${kubernetesVersion} built-in types as their JSON (timestamps and quantities are
 * strings), for API files to embed: \`template: PodTemplateSpec\`, \`tolerations?: Toleration[]\`.
 * \`opgen manifests\` writes each as the official schema, as it does for the
 * \`@kubernetes/client-node\` model of the same name with its version prefix (\`V1PodTemplateSpec\`).
 *
 * @module
 */
import type { ${imports.join(', ')} } from './meta.js';

${declarations.join('\n')}`;

const namesContent = `${generated}
/**
 * The Kubernetes types \`@opgen/runtime/api\` exports (runtime/src/api/kubernetes.ts) by
 * name, each with the OpenAPI definition \`opgen manifests\` writes for it.
 */
export const runtimeKubernetesTypes: Readonly<Record<string, string>> = {
${[...types].map(([definition, name]) => `  ${name}: '${definition}',\n`).join('')}};
`;

let stale = false;
for (const [file, content] of [[typesFile, typesContent], [namesFile, namesContent]]) {
  let current = '';
  try {
    current = readFileSync(file, 'utf8');
  } catch {
    // A missing file is stale too.
  }
  if (current === content) continue;
  if (process.argv.includes('--check')) {
    console.error(`${file} is stale: run node hack/api-types/generate.mjs`);
    stale = true;
  } else {
    writeFileSync(file, content);
    console.log(`${file}: written`);
  }
}
if (stale) process.exitCode = 1;
else console.log(`${types.size} Kubernetes ${kubernetesVersion} types`);
