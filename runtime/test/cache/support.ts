import net from 'node:net';
import { KubeConfig } from '@kubernetes/client-node';
import type { DeepReadonly, KubeObject } from '../../src/object.js';
import type { EventHandler } from '../../src/cache/index.js';
import type { LoggerLike } from '../../src/client/index.js';

/**
 * A TCP relay in front of the real API server, to cut the network between an informer
 * and the server at a moment the test chooses (a partition, not a mock: every byte that
 * passes is the API server's).
 */
export interface NetworkCut {
  /** A kubeconfig whose server is the relay. */
  kubeConfig: KubeConfig;
  /** Drops every open connection and resets new ones until `heal()`. */
  cut(): void;
  /** Forwards nothing any more, in either direction, without closing anything: a black hole. */
  stall(): void;
  /**
   * Forwards nothing on the connections open now, without closing them, while new
   * connections pass: what a NAT or load balancer that forgot its flows does.
   */
  blackHoleOpen(): void;
  heal(): void;
  /**
   * Holds every byte, both ways, on open and new connections alike, without closing
   * anything, until `thaw()` delivers them in order: a network that stops, then comes back.
   */
  freeze(): void;
  thaw(): void;
  /** `performance.now()` when a byte from a client first arrived since `freeze()`; undefined before. */
  readonly heldSince: number | undefined;
  close(): Promise<void>;
}

export async function startNetworkCut(kubeConfig: KubeConfig): Promise<NetworkCut> {
  const target = new URL(kubeConfig.getCurrentCluster()!.server);
  const sockets = new Set<net.Socket>();
  let cut = false;
  let stalled = false;
  let frozen = false;
  let heldSince: number | undefined;
  /** Bytes held while frozen, with their destination; `null` is a FIN. */
  let held: Array<[net.Socket, Buffer | null]> = [];
  /** Forwards `from`'s bytes to `to` (held while frozen), and its FIN as a FIN, as pipe() does. */
  const forward = (from: net.Socket, to: net.Socket, fromClient: boolean): void => {
    from.on('data', (chunk: Buffer) => {
      if (!frozen) {
        to.write(chunk);
        return;
      }
      if (fromClient) heldSince ??= performance.now();
      held.push([to, chunk]);
    });
    from.on('end', () => {
      if (frozen) held.push([to, null]);
      else to.end();
    });
  };
  const server = net.createServer((client) => {
    if (cut) {
      client.resetAndDestroy();
      return;
    }
    if (stalled) {
      sockets.add(client);
      client.pause();
      return;
    }
    const upstream = net.connect(Number(target.port), target.hostname);
    for (const socket of [client, upstream]) {
      sockets.add(socket);
      socket.on('close', () => sockets.delete(socket));
      socket.on('error', () => {
        client.destroy();
        upstream.destroy();
      });
    }
    forward(client, upstream, true);
    forward(upstream, client, false);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as net.AddressInfo).port;
  const relayed = new KubeConfig();
  relayed.loadFromString(kubeConfig.exportConfig());
  const cluster = relayed.getCurrentCluster()!;
  relayed.loadFromOptions({
    clusters: relayed.clusters.map((c) => (c.name === cluster.name ? { ...c, server: `https://127.0.0.1:${port}` } : c)),
    users: relayed.users,
    contexts: relayed.contexts,
    currentContext: relayed.currentContext,
  });
  return {
    kubeConfig: relayed,
    cut() {
      cut = true;
      for (const socket of sockets) socket.resetAndDestroy();
    },
    stall() {
      stalled = true;
      for (const socket of sockets) socket.pause();
    },
    blackHoleOpen() {
      for (const socket of sockets) socket.pause();
    },
    heal() {
      cut = false;
      stalled = false;
    },
    freeze() {
      frozen = true;
      heldSince = undefined;
    },
    thaw() {
      frozen = false;
      for (const [to, chunk] of held) {
        if (to.destroyed) continue;
        if (chunk) to.write(chunk);
        else to.end();
      }
      held = [];
    },
    get heldSince() {
      return heldSince;
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

/** Records what an informer's handler saw as `add a`, `update b 2`, `delete c` lines. */
export function recordEvents<T extends KubeObject>(describe: (object: DeepReadonly<T>) => string = (o) => o.metadata?.name ?? ''): {
  handler: EventHandler<T>;
  events: string[];
} {
  const events: string[] = [];
  return {
    events,
    handler: {
      add: (object) => events.push(`add ${describe(object)}`),
      update: (old, object) => events.push(`update ${describe(old)} -> ${describe(object)}`),
      delete: (object) => events.push(`delete ${describe(object)}`),
    },
  };
}

/** A logger that keeps its lines, to check what an informer reported. */
export function memoryLogger(): LoggerLike & { lines: { level: string; message: string; fields: object }[] } {
  const lines: { level: string; message: string; fields: object }[] = [];
  const at = (level: string) => (fields: object, message: string) => {
    lines.push({ level, message, fields });
  };
  return { lines, debug: at('debug'), info: at('info'), warn: at('warn'), error: at('error') };
}
