// The opgen side of bench/webhooks, as an operator runs it: a manager serving one defaulter
// that sets one label. Usage: KUBECONFIG=… node opgen-server.mjs <port> <cert-dir>
import { createManager, serveWebhooks, webhook, defineKind } from '../../runtime/dist/index.js';

const [port, certDir] = process.argv.slice(2);
const ConfigMap = defineKind({ group: '', version: 'v1', kind: 'ConfigMap', plural: 'configmaps', namespaced: true });
const mgr = createManager({ logLevel: 'warn' });
serveWebhooks(mgr, { host: '127.0.0.1', port: Number(port), certificate: { dir: certDir } });
webhook(mgr).for(ConfigMap, { defaulting: '/mutate' }).default((configMap) => {
  configMap.metadata.labels = { ...configMap.metadata.labels, defaulted: 'true' };
});
await mgr.start();
