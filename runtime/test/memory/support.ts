import { ApiError, type ApiStatus } from '../../src/rest/errors.js';
import type { HttpRequest, Transport } from '../../src/rest/transport.js';

/** A CRD of a namespaced kind `Widget` (example.com/v1) with the status subresource. */
export function widgetCRD(options: { status?: boolean; selectableFields?: string[]; scope?: 'Namespaced' | 'Cluster' } = {}) {
  return {
    apiVersion: 'apiextensions.k8s.io/v1',
    kind: 'CustomResourceDefinition',
    metadata: { name: 'widgets.example.com' },
    spec: {
      group: 'example.com',
      names: { kind: 'Widget', plural: 'widgets', singular: 'widget', listKind: 'WidgetList' },
      scope: options.scope ?? 'Namespaced',
      versions: [
        {
          name: 'v1',
          served: true,
          storage: true,
          subresources: options.status === false ? undefined : { status: {} },
          selectableFields: options.selectableFields?.map((jsonPath) => ({ jsonPath })),
          schema: { openAPIV3Schema: declaring(options.selectableFields ?? []) },
        },
      ],
    },
  };
}

/**
 * A schema that keeps any field and declares the selectable fields' paths (as strings): the
 * API server refuses a selectable field its schema does not declare.
 */
function declaring(paths: string[]): Record<string, unknown> {
  const root: Record<string, any> = { type: 'object', 'x-kubernetes-preserve-unknown-fields': true };
  for (const path of paths) {
    const fields = path.replace(/^\./, '').split('.');
    let node = root;
    fields.forEach((field, i) => {
      node.properties ??= {};
      node.properties[field] ??= i === fields.length - 1 ? { type: 'string' } : { type: 'object', 'x-kubernetes-preserve-unknown-fields': true };
      node = node.properties[field];
    });
  }
  return root;
}

/** The Status of the ApiError `promise` rejects with (fails when it resolves). */
export async function statusOf(promise: Promise<unknown>): Promise<ApiStatus & { code: number }> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof ApiError) return { ...error.status, code: error.code } as ApiStatus & { code: number };
    throw error;
  }
  throw new Error('the request succeeded; it was expected to fail');
}

type Json = Record<string, any>;

/** Shorthands over a transport. */
export function api(transport: Transport) {
  const call = (request: HttpRequest) => transport.request<Json>(request);
  return {
    get: (path: string, query?: HttpRequest['query'], accept?: string) => call({ method: 'GET', path, query, accept }),
    post: (path: string, body: unknown, query?: HttpRequest['query']) => call({ method: 'POST', path, body, query }),
    put: (path: string, body: unknown, query?: HttpRequest['query']) => call({ method: 'PUT', path, body, query }),
    patch: (path: string, body: unknown, contentType: string, query?: HttpRequest['query']) => call({ method: 'PATCH', path, body, contentType, query }),
    delete: (path: string, query?: HttpRequest['query'], body?: unknown) => call({ method: 'DELETE', path, query, body }),
  };
}
