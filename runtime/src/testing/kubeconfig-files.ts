/**
 * Kubeconfig files: reading one a user has (a context of theirs) and writing one. Apart from
 * `kubeconfig.ts` (the control plane's identities), so a memory-tier test loads neither.
 */
import { writeFileSync } from 'node:fs';
import type { KubeConfig } from '@kubernetes/client-node';
import { clientNode } from '../rest/client-node.js';

/** Writes a kubeconfig file (JSON is valid YAML) readable only by its owner: it holds a token. */
export function writeKubeConfig(kubeConfig: KubeConfig, path: string): void {
  writeFileSync(path, kubeConfig.exportConfig(), { mode: 0o600 });
}

/**
 * The kubeconfig file at `path` (default: `$KUBECONFIG`, else `~/.kube/config`) with
 * `context` as its current context; throws naming the context when the file has none of that
 * name. Relative certificate paths are made absolute, so the result can be written elsewhere
 * with {@link writeKubeConfig} (what `opgen dev --context` does); an operator reads its
 * kubeconfig with `loadKubeConfig` of `@opgen/runtime/manager` instead.
 *
 * @example
 * const kubeConfig = kubeConfigOfContext(undefined, 'kind-dev');
 * writeKubeConfig(kubeConfig, '.opgen/dev/kubeconfig');
 */
export function kubeConfigOfContext(path: string | undefined, context?: string): KubeConfig {
  const kubeConfig = new (clientNode().KubeConfig)();
  if (path) kubeConfig.loadFromFile(path);
  else kubeConfig.loadFromDefault();
  if (context !== undefined) {
    if (!kubeConfig.getContextObject(context)) throw new Error(`the kubeconfig has no context ${context} (it has: ${kubeConfig.getContexts().map((c) => c.name).join(', ') || 'none'})`);
    kubeConfig.setCurrentContext(context);
  }
  return kubeConfig;
}
