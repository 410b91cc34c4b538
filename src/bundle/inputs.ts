import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { parse } from 'yaml';
import { build, buildWithImage } from '../deploy/kustomize.js';
import { UserError } from '../errors.js';
import { loadProject } from '../project/load.js';
import type { ProjectConfig } from '../project/model.js';
import { parseObjects, type KubeObject } from './objects.js';

/** Everything of the project a bundle is made from. */
export interface BundleInputs {
  project: ProjectConfig;
  packageJson: { version?: string; description?: string };
  /** config/default as kustomize builds it (names prefixed, labels added). */
  objects: KubeObject[];
  /** config/samples as kustomize builds it. */
  samples: KubeObject[];
}

const webhookManifests = 'config/webhook/manifests.yaml';

/**
 * Reads the project the way operator-sdk's `make bundle` does, through kustomize:
 * config/default (with the manager's image when one is given), and the samples. Webhook
 * configurations come from config/default when it includes config/webhook, else from
 * config/webhook/manifests.yaml when it exists.
 */
export async function readBundleInputs(root: string, image: string | undefined): Promise<BundleInputs> {
  const project = await loadProject(root, 'opgen bundle');
  const packageJson = await readPackageJson(root);
  const objects = parseObjects(image ? buildWithImage(root, image) : build(root, 'config/default'));
  const samples = await readSamples(root);
  const hasWebhooks = objects.some((o) => o.kind.endsWith('WebhookConfiguration'));
  if (!hasWebhooks && existsSync(join(root, webhookManifests))) {
    objects.push(...parseObjects(await readFile(join(root, webhookManifests), 'utf8')));
  }
  return { project, packageJson, objects, samples };
}

/**
 * The objects of config/samples: its kustomization's resources, read as they are when all
 * are files (kustomize refuses a kustomization that lists none), else as kustomize builds them.
 */
async function readSamples(root: string): Promise<KubeObject[]> {
  const kustomization = join(root, 'config/samples/kustomization.yaml');
  if (!existsSync(kustomization)) return [];
  const resources = (parse(await readFile(kustomization, 'utf8')) as { resources?: unknown } | null)?.resources ?? [];
  if (!Array.isArray(resources) || !resources.every((r) => typeof r === 'string' && /\.ya?ml$/.test(r))) {
    return parseObjects(build(root, 'config/samples', { allowEmpty: true }));
  }
  const texts = await Promise.all(resources.map((r: string) => readFile(join(root, 'config/samples', r), 'utf8')));
  return texts.flatMap(parseObjects);
}

async function readPackageJson(root: string): Promise<BundleInputs['packageJson']> {
  const path = join(root, 'package.json');
  try {
    return JSON.parse(await readFile(path, 'utf8')) as BundleInputs['packageJson'];
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return {};
    throw new UserError(`package.json is not JSON: ${(error as Error).message}`, { file: 'package.json' });
  }
}
