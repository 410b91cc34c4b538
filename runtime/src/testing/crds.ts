import { readdirSync, readFileSync, statSync } from 'node:fs';
import { extname, join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import type { KubeConfig, V1CustomResourceDefinition } from '@kubernetes/client-node';
import { parseAllDocuments } from 'yaml';
import { clientNode } from '../rest/client-node.js';

/** Field manager of the harness's server-side applies. */
export const FIELD_MANAGER = 'opgen-testing';

const manifestExtensions = new Set(['.yaml', '.yml', '.json']);

/**
 * Reads every CustomResourceDefinition in `paths` (files, or directories whose
 * `.yaml`/`.yml`/`.json` files are read, not recursively). Other documents, such as a
 * kustomization.yaml, are skipped; a path without any CRD is an error, as it is most
 * likely the wrong path. The CRDs come as client-node's model (`x_kubernetes_int_or_string`,
 * `_default`), which its API clients serialise back to the wire.
 */
export function readCRDs(paths: string | string[]): V1CustomResourceDefinition[] {
  const { loadYaml } = clientNode();
  // JSON is YAML: client-node's loader turns each document into its model.
  return readCRDDocuments(paths).map((crd) => loadYaml(JSON.stringify(crd)));
}

/**
 * {@link readCRDs} as the API server takes them (wire JSON), read without client-node: what
 * the memory tier installs, so that a test on it never loads client-node.
 */
export function readCRDDocuments(paths: string | string[]): CRDDocument[] {
  const crds: CRDDocument[] = [];
  for (const path of typeof paths === 'string' ? [paths] : paths) {
    let files: string[];
    try {
      files = statSync(path).isDirectory()
        ? readdirSync(path)
            .filter((name) => manifestExtensions.has(extname(name)))
            .sort()
            .map((name) => join(path, name))
        : [path];
    } catch {
      throw new Error(`CRD path ${path} does not exist`);
    }
    const found = files.flatMap((file) => {
      const documents = parseAllDocuments(readFileSync(file, 'utf8'));
      const broken = documents.find((document) => document.errors.length > 0);
      if (broken) throw new Error(`${file}: not valid YAML: ${broken.errors[0]!.message}`);
      return documents.map((document) => document.toJS() as unknown).filter(isCRD);
    });
    if (found.length === 0) throw new Error(`no CustomResourceDefinition found in ${path}`);
    crds.push(...found);
  }
  return crds;
}

/** A CustomResourceDefinition document as written, keys under their wire names. */
export interface CRDDocument {
  apiVersion: 'apiextensions.k8s.io/v1';
  kind: 'CustomResourceDefinition';
  metadata?: { name?: string };
  [key: string]: unknown;
}

function isCRD(document: unknown): document is CRDDocument {
  const object = document as { apiVersion?: unknown; kind?: unknown } | null;
  return object?.kind === 'CustomResourceDefinition' && object.apiVersion === 'apiextensions.k8s.io/v1';
}

/**
 * Installs the CRDs in `paths` with server-side apply (no size limit from the
 * last-applied annotation) and waits until each is Established. Returns their names.
 */
export async function installCRDs(
  kubeConfig: KubeConfig,
  paths: string | string[],
  options: { timeoutMs?: number } = {},
): Promise<string[]> {
  const { KubernetesObjectApi, PatchStrategy } = clientNode();
  const client = KubernetesObjectApi.makeApiClient(kubeConfig);
  const names: string[] = [];
  for (const crd of readCRDs(paths)) {
    await client.patch(crd, undefined, undefined, FIELD_MANAGER, true, PatchStrategy.ServerSideApply);
    names.push(crd.metadata?.name ?? '');
  }
  await waitForCRDsEstablished(kubeConfig, names, options);
  return names;
}

/** Waits until every named CRD has `Established=True`; errors name the ones that are not. */
export async function waitForCRDsEstablished(
  kubeConfig: KubeConfig,
  names: string[],
  options: { timeoutMs?: number } = {},
): Promise<void> {
  const api = kubeConfig.makeApiClient(clientNode().ApiextensionsV1Api);
  const deadline = Date.now() + (options.timeoutMs ?? 30_000);
  let pending = [...names];
  while (pending.length > 0) {
    const states = await Promise.all(
      pending.map(async (name) => {
        const crd = await api.readCustomResourceDefinition({ name });
        const established = crd.status?.conditions?.some((c) => c.type === 'Established' && c.status === 'True');
        return established ? undefined : name;
      }),
    );
    pending = states.filter((name): name is string => name !== undefined);
    if (pending.length === 0) return;
    if (Date.now() >= deadline) {
      throw new Error(`CustomResourceDefinitions not Established in time: ${pending.join(', ')}`);
    }
    await sleep(100);
  }
}
