// Regenerates src/data/builtins.jsonl: the CRD schema controller-gen v0.21 writes for every
// exported type of the Kubernetes API packages below (k8s.io/api and friends at the version
// runtime/controlplane/versions.env pins). main.go runs controller-tools' own parser and
// flattener; this script stores the result compactly: every distinct schema node once, its
// child schemas as indices into the node table, so a pod spec embedded in forty types is
// stored once. `opgen manifests` expands a type's node where an API embeds it. One JSON
// value a line: first the versions and the type index, then node 0, 1, …, so that opgen
// parses only the nodes a project uses (most use a Condition or none).
//
//   node hack/builtins/update.mjs           rewrite the file
//   node hack/builtins/update.mjs --check   exit 1 if it is stale (CI)
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { sortKeys, writeOrCheck } from '../lib/generated-file.mjs';

const here = fileURLToPath(new URL('.', import.meta.url));
const output = fileURLToPath(new URL('../../src/data/builtins.jsonl', import.meta.url));
const versions = readFileSync(new URL('../../runtime/controlplane/versions.env', import.meta.url), 'utf8');
const kubernetesVersion = /^KUBERNETES_VERSION=(\S+)$/m.exec(versions)?.[1];
const goMod = readFileSync(new URL('go.mod', import.meta.url), 'utf8');
const controllerTools = /sigs\.k8s\.io\/controller-tools (\S+)/.exec(goMod)?.[1];
if (!goMod.includes(`k8s.io/api v0.${kubernetesVersion?.slice(2)}\n`)) {
  throw new Error(`hack/builtins/go.mod must require k8s.io/api v0.${kubernetesVersion?.slice(2)} (versions.env pins Kubernetes ${kubernetesVersion})`);
}

/** The API groups a kube-apiserver serves by default, and the apimachinery types they use. */
const packages = [
  ...['admissionregistration/v1', 'apps/v1', 'authentication/v1', 'authorization/v1', 'autoscaling/v1', 'autoscaling/v2', 'batch/v1']
    .concat(['certificates/v1', 'coordination/v1', 'core/v1', 'discovery/v1', 'events/v1', 'flowcontrol/v1', 'networking/v1', 'node/v1'])
    .concat(['policy/v1', 'rbac/v1', 'resource/v1', 'scheduling/v1', 'storage/v1'])
    .map((groupVersion) => `k8s.io/api/${groupVersion}`),
  'k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1',
  'k8s.io/apimachinery/pkg/api/resource',
  'k8s.io/apimachinery/pkg/apis/meta/v1',
  'k8s.io/apimachinery/pkg/runtime',
  'k8s.io/apimachinery/pkg/util/intstr',
  'k8s.io/apimachinery/pkg/version',
  'k8s.io/kube-aggregator/pkg/apis/apiregistration/v1',
];

const run = spawnSync('go', ['run', '.', ...packages], { cwd: here, maxBuffer: 1 << 30, encoding: 'utf8' });
if (run.status !== 0) throw new Error(`go run hack/builtins failed:\n${run.stderr}`);
const schemas = JSON.parse(run.stdout);
// Types controller-gen refuses (floats, untagged fields, interfaces) are left out, as main.go says on stderr.
const skipped = run.stderr.split('\n').filter((line) => line.startsWith('skipped ')).length;

const nodes = [];
const nodeIndex = new Map();
/** Index of a schema node whose child schemas are indices already; equal nodes share one. */
function intern(schema) {
  const node = {};
  for (const key of Object.keys(schema).sort()) {
    const value = schema[key];
    switch (key) {
      case 'properties':
        node[key] = Object.fromEntries(Object.keys(value).sort().map((name) => [name, intern(value[name])]));
        break;
      case 'items':
      case 'not':
        node[key] = intern(value);
        break;
      case 'additionalProperties':
        node[key] = typeof value === 'object' ? intern(value) : value;
        break;
      case 'allOf':
      case 'anyOf':
      case 'oneOf':
        node[key] = value.map(intern);
        break;
      default:
        node[key] = sortKeys(value);
    }
  }
  const text = JSON.stringify(node);
  let index = nodeIndex.get(text);
  if (index === undefined) {
    index = nodes.push(node) - 1;
    nodeIndex.set(text, index);
  }
  return index;
}

const types = Object.fromEntries(Object.keys(schemas).sort().map((name) => [name, intern(schemas[name])]));
const content = [{ kubernetesVersion, controllerTools, types }, ...nodes].map((line) => `${JSON.stringify(line)}\n`).join('');
const summary = `${Object.keys(types).length} types (${skipped} controller-gen cannot generate left out), ${nodes.length} schema nodes, controller-tools ${controllerTools}, Kubernetes ${kubernetesVersion}`;
writeOrCheck(output, content, summary, 'hack/builtins/update.mjs');
