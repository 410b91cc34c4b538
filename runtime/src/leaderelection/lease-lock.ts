import { isAlreadyExists, isConflict, isNotFound } from '../rest/errors.js';
import { Lease } from '../client/kinds.js';
import { resourcePath } from '../rest/paths.js';
import type { Transport } from '../rest/transport.js';

export type LeaseSpec = NonNullable<Lease['spec']>;

/** Reads and writes one Lease; every call takes a signal so a hung request cannot outlive the renew deadline. */
export interface LeaseLock {
  get(signal: AbortSignal): Promise<Lease | undefined>;
  /** The created Lease, or undefined when another candidate created it first. */
  create(spec: LeaseSpec, signal: AbortSignal): Promise<Lease | undefined>;
  /** The updated Lease, or undefined when `lease` was stale (someone else wrote in between). */
  update(lease: Lease, spec: LeaseSpec, signal: AbortSignal): Promise<Lease | undefined>;
}

export function createLeaseLock(transport: Transport, namespace: string, name: string): LeaseLock {
  const path = resourcePath(Lease, namespace, name);
  return {
    async get(signal) {
      try {
        return await transport.request<Lease>({ method: 'GET', path, signal });
      } catch (error) {
        if (isNotFound(error)) return undefined;
        throw error;
      }
    },

    async create(spec, signal) {
      const body: Lease = { apiVersion: 'coordination.k8s.io/v1', kind: 'Lease', metadata: { name, namespace }, spec };
      try {
        return await transport.request<Lease>({ method: 'POST', path: resourcePath(Lease, namespace), body, signal });
      } catch (error) {
        if (isAlreadyExists(error)) return undefined;
        throw error;
      }
    },

    async update(lease, spec, signal) {
      // resourceVersion in the body makes the write conditional: optimistic concurrency.
      const body: Lease = { apiVersion: 'coordination.k8s.io/v1', kind: 'Lease', metadata: lease.metadata, spec };
      try {
        return await transport.request<Lease>({ method: 'PUT', path, body, signal });
      } catch (error) {
        if (isConflict(error) || isNotFound(error)) return undefined;
        throw error;
      }
    },
  };
}
