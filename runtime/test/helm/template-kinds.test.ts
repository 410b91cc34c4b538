import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { templateKinds } from '../../src/helm/template-kinds.js';

describe('the kinds a chart\'s templates name', () => {
  it('include objects behind conditions the default values leave off, not test hooks', async () => {
    const kinds = await templateKinds(fileURLToPath(new URL('../fixtures/helm/webapp', import.meta.url)));
    // service.yaml is wrapped in {{- if .Values.service.enabled }}, off by default; tests/ holds a test hook Pod.
    expect(kinds).toEqual([
      { apiVersion: 'v1', kind: 'ConfigMap' },
      { apiVersion: 'v1', kind: 'Service' },
    ]);
  });

  it('include the example chart\'s Deployment, in any file order', async () => {
    const kinds = await templateKinds(fileURLToPath(new URL('../../../examples/charts/static-site', import.meta.url)));
    expect(kinds.map((k) => `${k.apiVersion} ${k.kind}`).sort()).toEqual(['apps/v1 Deployment', 'v1 ConfigMap', 'v1 Service']);
  });
});
