#!/usr/bin/env node
// Records how kube-apiserver answers the schema cases the memory cluster's tests replay:
// runtime/test/memory/schema/{widget-crd,cases,crd-cases}.json in, recorded.json out. Run after
// `npx tsc -b runtime`, holding a control-plane slot:
//   KUBEBUILDER_ASSETS=... /work/tools/cpslot node hack/memory-schema/record.mjs
import { readFileSync, writeFileSync } from 'node:fs';
import https from 'node:https';
import { startControlPlane, KUBERNETES_VERSION } from '../../runtime/dist/testing/index.js';

const dir = new URL('../../runtime/test/memory/schema/', import.meta.url);
const crd = JSON.parse(readFileSync(new URL('widget-crd.json', dir), 'utf8'));
const cases = JSON.parse(readFileSync(new URL('cases.json', dir), 'utf8'));
const crdCases = JSON.parse(readFileSync(new URL('crd-cases.json', dir), 'utf8'));
const base = `/apis/${crd.spec.group}/v1/namespaces/default/${crd.spec.names.plural}`;

const cp = await startControlPlane();
try {
  const options = {};
  await cp.kubeConfig.applyToHTTPSOptions(options);
  const token = cp.kubeConfig.getCurrentUser().token;
  const url = new URL(cp.server);
  const request = (method, path, body) =>
    new Promise((resolve, reject) => {
      const req = https.request({ ...options, host: url.hostname, port: url.port, method, path, headers: { 'content-type': 'application/json', accept: 'application/json', authorization: `Bearer ${token}` } }, (res) => {
        let data = '';
        res.on('data', (chunk) => (data += chunk));
        res.on('end', () => resolve({ status: res.statusCode, body: JSON.parse(data) }));
      });
      req.on('error', reject);
      if (body !== undefined) req.write(JSON.stringify(body));
      req.end();
    });
  const created = await request('POST', '/apis/apiextensions.k8s.io/v1/customresourcedefinitions', crd);
  if (created.status !== 201) throw new Error(JSON.stringify(created.body));
  // Established is not enough: the CRD handler serves the new schema a moment later.
  await new Promise((resolve) => setTimeout(resolve, 3000));
  const answer = (r) => ({ status: r.status, ...(r.status < 300 ? { object: { spec: r.body.spec, status: r.body.status, top: Object.keys(r.body).sort() } } : { message: r.body.message, causes: r.body.details?.causes ?? [] }) });
  const recorded = [];
  for (const c of cases) {
    let r = await request('POST', base, c.create);
    if (c.update) {
      if (r.status !== 201) throw new Error(`${c.label}: create failed: ${JSON.stringify(r.body)}`);
      const body = structuredClone(r.body);
      if ('spec' in c.update) body.spec = c.update.spec;
      if ('status' in c.update) body.status = c.update.status;
      r = await request('PUT', `${base}/${c.create.metadata.name}${c.subresource ? `/${c.subresource}` : ''}`, body);
    }
    recorded.push({ label: c.label, ...answer(r) });
  }
  const admission = [];
  for (const c of crdCases) {
    const r = await request('POST', '/apis/apiextensions.k8s.io/v1/customresourcedefinitions', c.crd);
    admission.push({ label: c.label, status: r.status, ...(r.status >= 300 ? { message: r.body.message, causes: r.body.details?.causes ?? [] } : {}) });
    if (r.status === 201) await request('DELETE', `/apis/apiextensions.k8s.io/v1/customresourcedefinitions/${c.crd.metadata.name}`);
  }
  writeFileSync(new URL('recorded.json', dir), `${JSON.stringify({ kubernetes: KUBERNETES_VERSION, recorded, admission }, null, 1)}\n`);
} finally {
  await cp.stop();
}
