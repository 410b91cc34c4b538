// The opgen side of bench/webhooks, as an operator runs it: a manager serving one defaulter
// that sets one label, and the conversion of Item between v1 and v2 (the hub) on /convert.
// Usage: KUBECONFIG=… node opgen-server.mjs <port> <cert-dir>
import { conversion, createManager, serveWebhooks, webhook } from '../../runtime/dist/index.js';
import { defineKind } from '../../runtime/dist/api/index.js';

const [port, certDir] = process.argv.slice(2);
const ConfigMap = defineKind({ group: '', version: 'v1', kind: 'ConfigMap', plural: 'configmaps', namespaced: true });
const item = { group: 'opgen.bench.opgen.dev', kind: 'Item', plural: 'items', namespaced: true };
const ItemV1 = defineKind({ ...item, version: 'v1' });
const ItemV2 = defineKind({ ...item, version: 'v2' });
const mgr = createManager({ logLevel: 'warn' });
serveWebhooks(mgr, { host: '127.0.0.1', port: Number(port), certificate: { dir: certDir } });
webhook(mgr).for(ConfigMap, { defaulting: '/mutate' }).default((configMap) => {
  configMap.metadata.labels = { ...configMap.metadata.labels, defaulted: 'true' };
});
conversion(mgr).for(ItemV2).hub(ItemV2).spoke(ItemV1, {
  toHub: ({ spec: { size, ...spec }, ...v1 }) => ({ ...v1, spec: { ...spec, replicas: size } }),
  fromHub: ({ spec: { replicas, ...spec }, ...v2 }) => ({ ...v2, spec: { ...spec, size: replicas } }),
});
await mgr.start();
