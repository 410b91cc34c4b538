// Regenerates hack/openapi/kubernetes-openapi.json (beside this script, not shipped): the OpenAPI v3 schemas of every built-in
// type of the pinned Kubernetes release, read from a real kube-apiserver. They are the source
// hack/api-types/generate.mjs declares the runtime's Kubernetes types from; the CRD schemas
// `opgen manifests` writes for those types come from src/data/builtins.jsonl (hack/builtins).
//
//   npx tsc -b runtime && node hack/openapi/update.mjs           rewrite the file
//   npx tsc -b runtime && node hack/openapi/update.mjs --check   exit 1 if it is stale
import { get } from 'node:https';
import { fileURLToPath } from 'node:url';
import { sortKeys, writeOrCheck } from '../lib/generated-file.mjs';
import { KUBERNETES_VERSION, startControlPlane } from '../../runtime/dist/testing/index.js';

const output = fileURLToPath(new URL('./kubernetes-openapi.json', import.meta.url));

const controlPlane = await startControlPlane();
try {
  const version = await getJson(controlPlane.kubeConfig, '/version');
  if (version.gitVersion !== `v${KUBERNETES_VERSION}`) {
    throw new Error(`the API server is ${version.gitVersion}, the harness pins v${KUBERNETES_VERSION}`);
  }
  const index = await getJson(controlPlane.kubeConfig, '/openapi/v3');
  const schemas = {};
  const origin = {};
  for (const [groupVersion, { serverRelativeURL }] of Object.entries(index.paths)) {
    const document = await getJson(controlPlane.kubeConfig, serverRelativeURL);
    for (const [name, schema] of Object.entries(document.components?.schemas ?? {})) {
      schemas[name] = name in schemas ? merge(name, schemas[name], sortKeys(schema), `${origin[name]} and ${groupVersion}`) : sortKeys(schema);
      origin[name] ??= groupVersion;
    }
  }
  const content = `${JSON.stringify({ kubernetesVersion: KUBERNETES_VERSION, schemas: sortKeys(schemas) })}\n`;
  const summary = `${Object.keys(schemas).length} schemas from ${Object.keys(index.paths).length} documents`;
  writeOrCheck(output, content, summary, 'hack/openapi/update.mjs');
} finally {
  await controlPlane.stop();
}

/**
 * The same definition served in several group-versions differs only in the kinds it lists
 * (DeleteOptions, WatchEvent: one entry per group-version); list them all, as /openapi/v2 does.
 */
function merge(name, a, b, where) {
  const gvk = 'x-kubernetes-group-version-kind';
  const rest = (schema) => JSON.stringify({ ...schema, [gvk]: undefined });
  if (rest(a) !== rest(b)) throw new Error(`${name} differs between ${where}`);
  if (!a[gvk] && !b[gvk]) return a;
  const kinds = new Map([...(a[gvk] ?? []), ...(b[gvk] ?? [])].map((k) => [`${k.group}/${k.version}/${k.kind}`, k]));
  return sortKeys({ ...a, [gvk]: [...kinds.keys()].sort().map((key) => kinds.get(key)) });
}

async function getJson(kubeConfig, path) {
  const options = { headers: { accept: 'application/json' } };
  await kubeConfig.applyToHTTPSOptions(options);
  const url = new URL(path, kubeConfig.getCurrentCluster().server);
  return new Promise((resolve, reject) => {
    get(url, options, (response) => {
      const chunks = [];
      response.on('data', (chunk) => chunks.push(chunk));
      response.on('error', reject);
      response.on('end', () => {
        const body = Buffer.concat(chunks).toString('utf8');
        if (response.statusCode !== 200) reject(new Error(`GET ${path}: ${response.statusCode} ${body.slice(0, 300)}`));
        else resolve(JSON.parse(body));
      });
    }).on('error', reject);
  });
}
