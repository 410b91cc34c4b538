import { existsSync, statSync } from 'node:fs';
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { UserError } from '../../errors.js';
import { parseLocated, type LocatedDocument } from '../locate.js';
import type { KubeObject } from '../objects.js';
import type { Findings } from './problems.js';

/** One object of bundle/manifests with where it was read. */
export interface BundleObject {
  object: KubeObject;
  doc: LocatedDocument;
}

/** A bundle directory as the validators see it. */
export interface LoadedBundle {
  dir: string;
  objects: BundleObject[];
  annotations?: { doc: LocatedDocument; values: Record<string, unknown> };
}

/**
 * Reads every YAML or JSON file of `<dir>/manifests` and `<dir>/metadata/annotations.yaml`.
 * What cannot be read as Kubernetes objects becomes a located finding; YAML syntax errors too.
 */
export async function loadBundle(dir: string, findings: Findings): Promise<LoadedBundle> {
  if (!existsSync(dir) || !statSync(dir).isDirectory()) throw new UserError(`${dir} is not a directory: pass the bundle's directory (opgen bundle writes bundle/)`);
  const bundle: LoadedBundle = { dir, objects: [] };
  const manifests = join(dir, 'manifests');
  if (!existsSync(manifests)) findings.error(dir, [], 'has no manifests/ directory: a registry+v1 bundle keeps its CSV and CRDs there');
  else {
    const names = (await readdir(manifests)).filter((n) => /\.(ya?ml|json)$/.test(n)).sort();
    for (const name of names) {
      for (const doc of await readDocs(join(manifests, name), findings)) {
        const object = doc.value as Partial<KubeObject> | null;
        if (typeof object !== 'object' || object === null || typeof object.apiVersion !== 'string' || typeof object.kind !== 'string') {
          findings.error(doc, [], 'is not a Kubernetes object: apiVersion and kind are needed');
        } else if (typeof object.metadata?.name !== 'string' || !object.metadata.name) {
          findings.error(doc, ['metadata'], `${object.kind} has no metadata.name`);
        } else bundle.objects.push({ object: object as KubeObject, doc });
      }
    }
  }
  const annotationsPath = join(dir, 'metadata', 'annotations.yaml');
  if (!existsSync(annotationsPath)) findings.error(dir, [], 'has no metadata/annotations.yaml: OLM reads the package and channels from it');
  else {
    const [doc] = await readDocs(annotationsPath, findings);
    const values = (doc?.value as { annotations?: unknown } | null)?.annotations;
    if (doc && (typeof values !== 'object' || values === null || Array.isArray(values))) findings.error(doc, ['annotations'], 'has no annotations mapping');
    else if (doc) bundle.annotations = { doc, values: values as Record<string, unknown> };
  }
  return bundle;
}

async function readDocs(path: string, findings: Findings): Promise<LocatedDocument[]> {
  try {
    return parseLocated(await readFile(path, 'utf8'), path);
  } catch (error) {
    if (!(error instanceof UserError)) throw error;
    findings.list.push({ severity: 'error', error });
    return [];
  }
}
