import { readdirSync, readFileSync } from 'node:fs';
import { Watch, type KubeConfig } from '@kubernetes/client-node';

/** True while `pid` is a process that has not exited (zombies count as gone). */
export function isAlive(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2)[0] !== 'Z';
  } catch {
    return false;
  }
}

const controlPlaneCommands = new Set(['etcd', 'kube-apiserver', 'kube-controller', 'sh']);

/** This process's living children that a control plane starts (etcd, the API server, ...). */
export function controlPlaneChildren(): Array<{ pid: number; command: string }> {
  const children: Array<{ pid: number; command: string }> = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    let stat: string;
    try {
      stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
    } catch {
      continue;
    }
    const command = stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
    const [state, ppid] = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    if (Number(ppid) === process.pid && state !== 'Z' && controlPlaneCommands.has(command)) {
      children.push({ pid: Number(entry), command });
    }
  }
  return children;
}

/** The first event of a watch on `path` from `resourceVersion` (an ERROR event included). */
export async function firstWatchEvent(
  kubeConfig: KubeConfig,
  path: string,
  resourceVersion: string,
): Promise<{ type: string; object: { code?: number; reason?: string; metadata?: { name?: string } } }> {
  let abort: AbortController | undefined;
  try {
    return await new Promise((resolve, reject) => {
      void new Watch(kubeConfig)
        .watch(
          path,
          { resourceVersion },
          (type, object) => resolve({ type, object }),
          (error) => reject(error ?? new Error(`watch on ${path} ended without an event`)),
        )
        .then((controller) => (abort = controller));
    });
  } finally {
    abort?.abort();
  }
}
