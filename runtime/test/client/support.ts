import { randomBytes } from 'node:crypto';
import type { KubeConfig } from '@kubernetes/client-node';
import { vi } from 'vitest';
import { defineKind, type Condition, type ObjectMeta } from '../../src/api/index.js';
import { createClient, isAlreadyExists, kinds, type Client } from '../../src/client/index.js';

/** A small custom kind with a status subresource, for tests that need one. */
export interface Widget {
  apiVersion?: string;
  kind?: string;
  metadata?: ObjectMeta;
  spec: { size: number; color?: string; tags?: string[] };
  status?: { ready?: boolean; observed?: number; conditions?: Condition[] };
}
export const Widget = defineKind<Widget>({ group: 'test.opgen.dev', version: 'v1', kind: 'Widget', plural: 'widgets', namespaced: true });

const widgetCRD: kinds.CustomResourceDefinition = {
  metadata: { name: 'widgets.test.opgen.dev' },
  spec: {
    group: 'test.opgen.dev',
    names: { kind: 'Widget', plural: 'widgets', singular: 'widget', listKind: 'WidgetList' },
    scope: 'Namespaced',
    versions: [
      {
        name: 'v1',
        served: true,
        storage: true,
        subresources: { status: {} },
        schema: {
          openAPIV3Schema: {
            type: 'object',
            properties: {
              spec: {
                type: 'object',
                required: ['size'],
                properties: {
                  size: { type: 'integer', minimum: 0 },
                  color: { type: 'string' },
                  tags: { type: 'array', items: { type: 'string' }, 'x-kubernetes-list-type': 'set' },
                },
              },
              status: {
                type: 'object',
                properties: {
                  ready: { type: 'boolean' },
                  observed: { type: 'integer' },
                  conditions: { type: 'array', items: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true } },
                },
              },
            },
          },
        },
      },
    ],
  },
};

/** Installs the Widget CRD and waits until the API server serves widgets. */
export async function installWidgetCRD(kubeConfig: KubeConfig): Promise<void> {
  const client = createClient(kubeConfig);
  try {
    await client.create(kinds.CustomResourceDefinition, widgetCRD);
  } catch (error) {
    if (!isAlreadyExists(error)) throw error;
  }
  await vi.waitFor(
    async () => {
      const crd = await client.get(kinds.CustomResourceDefinition, 'widgets.test.opgen.dev');
      const established = crd?.status?.conditions?.some((c) => c.type === 'Established' && c.status === 'True');
      if (!established) throw new Error('Widget CRD not established yet');
      await client.list(Widget, { namespace: 'default' });
    },
    { timeout: 30_000, interval: 200 },
  );
}

/** A fresh namespace, so tests sharing a control plane do not see each other's objects. */
export async function createNamespace(client: Client, prefix = 'test'): Promise<string> {
  const name = `${prefix}-${randomBytes(3).toString('hex')}`;
  await client.create(kinds.Namespace, { metadata: { name } });
  return name;
}

/** A ConfigMap body with the given name and data. */
export function configMap(namespace: string, name: string, data: Record<string, string> = {}, labels?: Record<string, string>): kinds.ConfigMap {
  return { metadata: { name, namespace, ...(labels && { labels }) }, data };
}
