/**
 * The cluster of a dev session: the memory cluster served on loopback (default), or a real
 * cluster from the user's kubeconfig (`--context`). Either way the session writes one
 * kubeconfig for the operator and for kubectl, readable by its owner only.
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { parseAllDocuments } from 'yaml';
import type { Kind } from '@opgen/runtime/api';
import { UserError } from '../errors.js';
import type { ProjectTesting } from './project-runtime.js';

type KubeConfig = ReturnType<ProjectTesting['kubeConfigOfContext']>;
/** The memory cluster's in-process connection (its transport and clock), as the runtime's cache takes it. */
export type MemoryConnection = Awaited<ReturnType<ProjectTesting['serveMemoryCluster']>>['memory']['cluster'];

/** A running dev cluster. */
export interface DevCluster {
  /** Where the session's kubeconfig is (`.opgen/dev/kubeconfig`). */
  readonly kubeconfigPath: string;
  /** `memory at https://127.0.0.1:<port>` or `context <name>`. */
  readonly description: string;
  /** The memory cluster's in-process connection; undefined for a real cluster. */
  readonly memoryConnection: MemoryConnection | undefined;
  /** Server-side applies the CRDs of `dirs` that exist, waits until they are Established; returns their names. */
  installCRDs(dirs: string[]): Promise<string[]>;
  /** Server-side applies every object of the YAML files in `dir` (kustomization.yaml skipped); returns how many. */
  applyManifests(dir: string): Promise<number>;
  /** Stops the memory cluster and removes the session's kubeconfig (which only this session wrote). */
  close(): Promise<void>;
}

const FIELD_MANAGER = 'opgen-dev';

/** Starts the memory cluster, or connects to `context`, and writes the kubeconfig to `kubeconfigPath`. */
export async function startDevCluster(testing: ProjectTesting, kubeconfigPath: string, context: string | undefined): Promise<DevCluster> {
  mkdirSync(join(kubeconfigPath, '..'), { recursive: true });
  let kubeConfig: KubeConfig;
  let description: string;
  let stop = async () => {};
  let memoryConnection: MemoryConnection | undefined;
  if (context !== undefined) {
    try {
      kubeConfig = testing.kubeConfigOfContext(undefined, context);
    } catch (error) {
      throw new UserError(`--context ${context}: ${error instanceof Error ? error.message : String(error)}`);
    }
    description = `context ${context}`;
  } else {
    const served = await testing.serveMemoryCluster();
    kubeConfig = served.kubeConfig();
    description = `memory cluster at ${served.url}`;
    stop = () => served.close();
    memoryConnection = served.memory.cluster;
  }
  testing.writeKubeConfig(kubeConfig, kubeconfigPath);
  return {
    kubeconfigPath,
    description,
    memoryConnection,
    async installCRDs(dirs) {
      const present = dirs.filter((dir) => existsSync(dir) && readdirSync(dir).some((f) => /\.(ya?ml|json)$/.test(f)));
      return present.length === 0 ? [] : testing.installCRDs(kubeConfig, present);
    },
    async applyManifests(dir) {
      const objects = readManifests(dir);
      await testing.applyObjects(kubeConfig, objects, FIELD_MANAGER);
      return objects.length;
    },
    async close() {
      await stop();
      rmSync(kubeconfigPath, { force: true });
    },
  };
}

/** The kinds of the CRDs in `dirs`, at their storage versions. */
export function crdKinds(dirs: string[]): Kind[] {
  const kinds: Kind[] = [];
  for (const dir of dirs) {
    for (const object of readManifests(dir) as { kind?: string; spec?: { group?: string; scope?: string; names?: { kind?: string; plural?: string }; versions?: { name: string; storage?: boolean }[] } }[]) {
      const { group, scope, names } = object.spec ?? {};
      const version = object.spec?.versions?.find((v) => v.storage)?.name;
      if (object.kind === 'CustomResourceDefinition' && group && names?.kind && names.plural && version) kinds.push({ group, version, kind: names.kind, plural: names.plural, namespaced: scope !== 'Cluster' });
    }
  }
  return kinds;
}

/** The objects of `dir`'s YAML files, in file order; a YAML error is a one-line error with its place. */
function readManifests(dir: string): object[] {
  if (!existsSync(dir)) return [];
  const objects: object[] = [];
  for (const name of readdirSync(dir).filter((f) => /\.ya?ml$/.test(f) && f !== 'kustomization.yaml').sort()) {
    const file = join(dir, name);
    for (const document of parseAllDocuments(readFileSync(file, 'utf8'))) {
      const [error] = document.errors;
      if (error) throw new UserError(error.message.split('\n')[0]!, { file, line: error.linePos?.[0].line, column: error.linePos?.[0].col });
      const value: unknown = document.toJS();
      if (value && typeof value === 'object' && 'kind' in value) objects.push(value);
    }
  }
  return objects;
}
