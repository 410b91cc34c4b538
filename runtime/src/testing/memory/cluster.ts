/**
 * `createMemoryCluster`: an API server in process, with the API server's semantics, for
 * controller tests that run in milliseconds. The manager, cache, informers and client run
 * unchanged over its in-process transport.
 */
import type { V1CustomResourceDefinition } from '@kubernetes/client-node';
import { ApiError } from '../../rest/errors.js';
import { createCluster, type Cluster } from '../../rest/cluster.js';
import type { Transport } from '../../rest/transport.js';
import type { Clock } from '../../time/clock.js';
import { createFakeClock, type FakeClock } from './clock.js';
import { runUntilIdle, type RunUntilIdleOptions } from './idle.js';
import { crdToWire } from './schema/wire.js';
import type { PipelineHooks } from './server/hooks.js';
import { createMemoryServer, type MemoryServer } from './server/server.js';
import { memoryTransport } from './server/transport.js';

/** Anything with apiVersion, kind and metadata: an object to create at start. */
export interface SeedObject {
  apiVersion?: string;
  kind?: string;
  metadata?: { name?: string; namespace?: string; [key: string]: unknown };
  [key: string]: unknown;
}

/** Options of {@link createMemoryCluster}. */
export interface MemoryClusterOptions {
  /** CustomResourceDefinitions to install; one the API server would refuse makes this throw with its message. */
  crds?: readonly (SeedObject | V1CustomResourceDefinition)[];
  /** Objects to create at start (namespaces first, then the rest in order). */
  objects?: readonly SeedObject[];
  /** The cluster's time; default a fake clock starting now, which `runUntilIdle()` moves. */
  clock?: FakeClock;
  /** Changes each resource's watch history keeps; default 1 000. A watch from an older resourceVersion gets 410 Expired. */
  historySize?: number;
  /** Replaces pipeline hooks (the schema and apply parts wire themselves in `server/hooks.ts`; this is for tests of the server). */
  hooks?: Partial<PipelineHooks>;
}

/** An API server in this process: what {@link createMemoryCluster} returns. */
export interface MemoryCluster {
  /** The in-process transport: what `createCluster({ transport })` and `watchOnce`/`listAll` take. */
  readonly transport: Transport;
  /** What `createManager({ cluster })` takes: the transport and this cluster's clock. */
  readonly cluster: Cluster;
  readonly clock: FakeClock;
  /** The server itself, for tests that look at its storage or controllers. */
  readonly server: MemoryServer;
  /** Runs until queues are empty, nothing is in flight and no timer is due within the horizon (see `RunUntilIdleOptions`). */
  runUntilIdle(options?: RunUntilIdleOptions): Promise<void>;
  /** Ends open watches and stops the server's controllers. */
  close(): void;
}

/** Namespaces a new API server has. */
const SYSTEM_NAMESPACES = ['default', 'kube-system', 'kube-public', 'kube-node-lease'];

const CRD_PATH = '/apis/apiextensions.k8s.io/v1/customresourcedefinitions';

/**
 * Starts an in-memory cluster: built-in kinds served, `crds` installed and established,
 * `objects` created, all through the API (so what the API server refuses is refused here).
 *
 * @example
 * import { createMemoryCluster } from '@opgen/runtime/testing';
 * import { createManager } from '@opgen/runtime/manager';
 *
 * const memory = await createMemoryCluster({ crds: await readCRDs('config/crd/bases') });
 * const mgr = createManager({ cluster: memory.cluster });
 * // ... register controllers, start, create objects, then:
 * await memory.runUntilIdle();
 * memory.close();
 */
export async function createMemoryCluster(options: MemoryClusterOptions = {}): Promise<MemoryCluster> {
  const clock = options.clock ?? createFakeClock();
  const server = createMemoryServer({ now: () => clock.wall().getTime(), historySize: options.historySize, hooks: options.hooks });
  const transport = memoryTransport(server);
  const untrack = clock.track?.('the memory API server', () => server.busy());
  for (const name of SYSTEM_NAMESPACES) await transport.request({ method: 'POST', path: '/api/v1/namespaces', body: { apiVersion: 'v1', kind: 'Namespace', metadata: { name } } });
  // CRDs read with readCRDs are client-node models: their schema keywords go back to their wire names.
  for (const crd of options.crds ?? []) await seed(transport, CRD_PATH, crdToWire(crd) as SeedObject, 'CustomResourceDefinition');
  const objects = options.objects ?? [];
  const namespacesFirst = [...objects.filter((o) => o.kind === 'Namespace'), ...objects.filter((o) => o.kind !== 'Namespace')];
  for (const object of namespacesFirst) await seed(transport, collectionPath(server, object), object, object.kind ?? '');
  await server.idle();
  const cluster: Cluster = createCluster({ transport, host: 'memory', clock: clock as Clock });
  return {
    transport,
    cluster,
    clock,
    server,
    runUntilIdle: (idleOptions) => runUntilIdle(clock, idleOptions),
    close() {
      untrack?.();
      server.close();
    },
  };
}

async function seed(transport: Transport, path: string, object: SeedObject, what: string): Promise<void> {
  try {
    await transport.request({ method: 'POST', path, body: object });
  } catch (error) {
    if (error instanceof ApiError) throw new Error(`createMemoryCluster: ${what} ${object.metadata?.name ?? ''} was refused: ${error.message}`, { cause: error });
    throw error;
  }
}

/** The collection URL of an object to create, from its apiVersion and kind. */
function collectionPath(server: MemoryServer, object: SeedObject): string {
  const info = object.apiVersion && object.kind ? server.state.registry.byKind(object.apiVersion, object.kind) : undefined;
  if (!info) throw new Error(`createMemoryCluster: objects[] has ${object.apiVersion ?? '(no apiVersion)'} ${object.kind ?? '(no kind)'}, which the memory cluster does not serve (install its CRD with crds)`);
  const base = info.group === '' ? `/api/${info.version}` : `/apis/${info.group}/${info.version}`;
  const namespace = info.namespaced ? object.metadata?.namespace : undefined;
  if (info.namespaced && !namespace) throw new Error(`createMemoryCluster: ${object.kind} ${object.metadata?.name ?? ''} is namespaced: give metadata.namespace`);
  return namespace ? `${base}/namespaces/${encodeURIComponent(namespace)}/${info.plural}` : `${base}/${info.plural}`;
}
