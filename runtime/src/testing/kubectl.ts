import { join } from 'node:path';
import type { ControlPlane } from './controlplane.js';
import { runCommand, type CommandResult } from './run-command.js';

/** Per-call settings of {@link Kubectl}; each overrides the default given to {@link kubectlFor}. */
export interface KubectlOptions {
  /** Standard input, e.g. a manifest for `-f -`. */
  input?: string;
  /** The kubeconfig file to act with, e.g. a ServiceAccount's `Identity.kubeconfigPath`. */
  kubeconfig?: string;
  /** Where relative paths (`-k config/crd`) are resolved. */
  cwd?: string;
}

/** How a kubectl run ended: its exit code (`null` when a signal ended it) and output. */
export type KubectlResult = CommandResult;

/**
 * kubectl pointed at one control plane, as a user runs it. Called as a function it
 * resolves to standard output and rejects, with kubectl's standard error in the message,
 * when kubectl exits non-zero.
 */
export interface Kubectl {
  (args: string[], options?: KubectlOptions): Promise<string>;
  /** Runs kubectl and resolves however it exits: for asserting on failures. */
  run(args: string[], options?: KubectlOptions): Promise<KubectlResult>;
  /**
   * One object as the API server stores it (`-o json`, managedFields included), or
   * `undefined` when it does not exist.
   */
  // A test reads what it asserts on without declaring the API server's whole object first.
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  get<T = any>(resource: string, name: string, options?: KubectlOptions & { namespace?: string }): Promise<T | undefined>;
  /** The objects of a `kubectl get <resource>`, optionally in one namespace and by label selector. */
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- as get()
  list<T = any>(resource: string, options?: KubectlOptions & { namespace?: string; selector?: string }): Promise<T[]>;
  /** `kubectl apply --server-side` of objects given as plain data; resolves to kubectl's output. */
  apply(objects: object | object[], options?: KubectlOptions): Promise<string>;
}

/**
 * kubectl from the control plane's binaries, as its admin unless `defaults.kubeconfig`
 * says otherwise. Its discovery cache lives in the control plane's dir, so nothing is
 * written under `~/.kube` and a later control plane on the same port never sees stale
 * API groups.
 *
 * @example
 * const kubectl = kubectlFor(controlPlane, { cwd: projectDir });
 * await kubectl(['apply', '--server-side', '-k', 'config/crd']);
 * await kubectl.apply({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'shop' } });
 * const claim = await kubectl.get('pvc', 'data', { namespace: 'shop' });
 * const denied = await kubectl.run(['get', 'secrets'], { kubeconfig: viewer.kubeconfigPath });
 * expect(denied.stderr).toContain('forbidden');
 */
export function kubectlFor(
  controlPlane: Pick<ControlPlane, 'kubectlPath' | 'kubeconfigPath' | 'dir'>,
  defaults: Omit<KubectlOptions, 'input'> = {},
): Kubectl {
  const cacheDir = join(controlPlane.dir, 'kubectl-cache');
  const run = (args: string[], options: KubectlOptions = {}): Promise<KubectlResult> => {
    const kubeconfig = options.kubeconfig ?? defaults.kubeconfig ?? controlPlane.kubeconfigPath;
    const cwd = options.cwd ?? defaults.cwd;
    const flags = [`--kubeconfig=${kubeconfig}`, `--cache-dir=${cacheDir}`];
    return runCommand(controlPlane.kubectlPath, [...flags, ...args], { cwd, input: options.input });
  };
  const kubectl = async (args: string[], options?: KubectlOptions): Promise<string> => {
    const result = await run(args, options);
    if (result.code !== 0) {
      const ended = result.code === null ? 'was killed' : `exited ${result.code}`;
      throw new Error(`kubectl ${args.join(' ')} ${ended}: ${result.stderr.trim()}`);
    }
    return result.stdout;
  };
  const scope = (namespace: string | undefined): string[] => (namespace ? ['--namespace', namespace] : []);

  return Object.assign(kubectl, {
    run,
    get: async (resource: string, name: string, options: KubectlOptions & { namespace?: string } = {}) => {
      const args = ['get', resource, name, ...scope(options.namespace), '--ignore-not-found', '--show-managed-fields', '-o', 'json'];
      const out = await kubectl(args, options);
      return out.trim() === '' ? undefined : JSON.parse(out);
    },
    list: async (resource: string, options: KubectlOptions & { namespace?: string; selector?: string } = {}) => {
      const selector = options.selector === undefined ? [] : ['--selector', options.selector];
      const args = ['get', resource, ...scope(options.namespace), ...selector, '--show-managed-fields', '-o', 'json'];
      // `never[]`: the list is whatever element type the caller asked for (`list<T>`).
      return (JSON.parse(await kubectl(args, options)) as { items: never[] }).items;
    },
    apply: (objects: object | object[], options: KubectlOptions = {}) => {
      const list = { apiVersion: 'v1', kind: 'List', items: Array.isArray(objects) ? objects : [objects] };
      return kubectl(['apply', '--server-side', '-f', '-'], { ...options, input: JSON.stringify(list) });
    },
  });
}
