/**
 * The cluster of a dev session: the memory cluster served on loopback (default), or a real
 * cluster from the user's kubeconfig (`--context`). Either way the session writes one
 * kubeconfig for the operator and for kubectl, readable by its owner only.
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { parseAllDocuments } from 'yaml';
import { UserError } from '../errors.js';
import type { ProjectTesting } from './project-runtime.js';

type KubeConfig = ReturnType<ProjectTesting['kubeConfigOfContext']>;
/** The memory cluster's in-process transport. */
export type MemoryTransport = Awaited<ReturnType<ProjectTesting['serveMemoryCluster']>>['memory']['transport'];

/** A running dev cluster. */
export interface DevCluster {
  /** Where the session's kubeconfig is (`.opgen/dev/kubeconfig`). */
  readonly kubeconfigPath: string;
  /** `memory at https://127.0.0.1:<port>` or `context <name>`. */
  readonly description: string;
  /** The memory cluster's in-process transport; undefined for a real cluster. */
  readonly memoryTransport: MemoryTransport | undefined;
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
  let memoryTransport: MemoryTransport | undefined;
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
    memoryTransport = served.memory.transport;
  }
  testing.writeKubeConfig(kubeConfig, kubeconfigPath);
  return {
    kubeconfigPath,
    description,
    memoryTransport,
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

/** The collections (`/apis/<group>/<version>/<plural>`, every namespace) of the CRDs in `dirs`, at their storage versions. */
export function crdCollections(dirs: string[]): string[] {
  const collections: string[] = [];
  for (const dir of dirs) {
    for (const object of readManifests(dir) as { kind?: string; spec?: { group?: string; names?: { plural?: string }; versions?: { name: string; storage?: boolean }[] } }[]) {
      const version = object.spec?.versions?.find((v) => v.storage)?.name;
      if (object.kind === 'CustomResourceDefinition' && object.spec?.group && object.spec.names?.plural && version) collections.push(`/apis/${object.spec.group}/${version}/${object.spec.names.plural}`);
    }
  }
  return collections;
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
