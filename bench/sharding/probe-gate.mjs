// Probes the API server for KEP-5866's server-side sharded list (feature gate
// ShardedListAndWatch, alpha in 1.36): starts a control plane with and without the gate and
// lists ConfigMaps with a shardSelector covering half of the hash space, printing how many
// come back and the list's metadata. Usage: node bench/sharding/probe-gate.mjs
import { createTransport } from '../../runtime/dist/rest/transport.js';
import { startControlPlane } from '../../runtime/dist/testing/index.js';

const half = "shardRange(object.metadata.uid, '0x0000000000000000', '0x8000000000000000')";
for (const gate of [false, true]) {
  const cp = await startControlPlane(gate ? { extraArgs: { kubeApiServer: ['--feature-gates=ShardedListAndWatch=true'] } } : {});
  try {
    const t = createTransport(cp.kubeConfig);
    for (let i = 0; i < 40; i++) {
      await t.request({ method: 'POST', path: '/api/v1/namespaces/default/configmaps', body: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: `p-${i}` } } });
    }
    const all = await t.request({ method: 'GET', path: '/api/v1/namespaces/default/configmaps' });
    let answer;
    try {
      const some = await t.request({ method: 'GET', path: `/api/v1/namespaces/default/configmaps?shardSelector=${encodeURIComponent(half)}` });
      answer = `${some.items.length} of ${all.items.length}; list metadata ${JSON.stringify(some.metadata)}`;
    } catch (error) {
      answer = `error: ${error.message}`;
    }
    console.log(`gate ${gate ? 'on' : 'off'}: shardSelector half → ${answer}`);
  } finally {
    await cp.stop();
  }
}
