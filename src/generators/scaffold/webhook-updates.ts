import { isScalar } from 'yaml';
import { UserError } from '../../errors.js';
import { projectFileName, type ProjectConfig } from '../../project/model.js';
import { serializeProject } from '../../project/serialize.js';
import { certificateMode } from '../../project/webhooks.js';
import type { GeneratedFile } from '../../writer/index.js';
import { projectWidePaths } from './api-updates.js';
import { addResources, removeListItems } from './config/kustomize.js';
import { defaultReplacements } from './config/webhook-replacements.js';
import { networkPolicyKustomization, webhookNetworkPolicy } from './config/webhook-network-policy.js';
import {
  addConfigurations,
  addPatches,
  addReplacements,
  conversionPatchEntry,
  crdKustomizeConfig,
  defaultPatches,
  defaultResources,
  removePatches,
  removeReplacements,
  webhookConfigFiles,
  webhookRbacResources,
} from './config/webhook.js';
import { registerController } from './register-controller.js';
import { webhookResources, webhookSetup, webhookSetupFile } from './webhook.js';

/** The kustomization the webhooks' resources, patches and replacements are listed in. */
export const defaultKustomization = 'config/default/kustomization.yaml';

/** The existing files {@link webhookProjectUpdates} adds entries to. */
export const webhookProjectPaths = [defaultKustomization, projectWidePaths.rbacKustomization, projectWidePaths.crdKustomization, projectWidePaths.main, 'package.json'] as const;

/** How src/main.ts calls src/webhooks/setup.ts once the project has webhooks. */
export const webhookRegistration = {
  setupFunction: 'setupWebhooks',
  module: `./${webhookSetupFile.slice('src/'.length).replace(/\.ts$/, '.js')}`,
  alias: 'setupProjectWebhooks',
  args: 'mgr, options',
};

/**
 * The project-wide files of the webhooks PROJECT records (`project` already holding them):
 * PROJECT, src/webhooks/setup.ts, the config/ wiring, the entries config/default,
 * config/rbac, config/crd, src/main.ts and package.json need, and the network policy that
 * admits the API server (when the project has config/network-policy), each added to the text
 * `current` gives for it, so the user's changes stay. Pure, for `create webhook` and for a
 * tool replaying PROJECT in memory; a kind's handler files are {@link webhookFiles}'s.
 *
 * @throws UserError when one of {@link webhookProjectPaths} it must change is missing.
 */
export function webhookProjectUpdates(project: ProjectConfig, boilerplate: string, current: (path: string) => string | undefined): GeneratedFile[] {
  const files: GeneratedFile[] = [
    { path: projectFileName, content: serializeProject(project), ownership: 'generated' },
    webhookSetup(project, boilerplate),
    ...webhookConfigFiles(project),
  ];
  const edit = (path: string, change: (text: string) => string) => {
    const text = current(path);
    if (text === undefined) throw new UserError(`${path} not found: opgen create webhook adds the webhooks' entries to it`, { file: path });
    files.push({ path, ownership: 'generated', content: change(text) });
  };
  edit(defaultKustomization, (text) =>
    addReplacements(
      addPatches(addResources(text, defaultResources(project), defaultKustomization), defaultPatches(project), defaultKustomization),
      defaultReplacements(project),
      defaultKustomization,
    ),
  );
  if (certificateMode(project) === 'built-in') {
    edit(projectWidePaths.rbacKustomization, (text) => addResources(text, webhookRbacResources, projectWidePaths.rbacKustomization));
  }
  const converted = webhookResources(project).filter(({ webhooks }) => webhooks.conversion);
  if (converted.length) {
    const entries = converted.map(({ resource }) => conversionPatchEntry(resource.plural));
    edit(projectWidePaths.crdKustomization, (text) =>
      addConfigurations(addPatches(text, entries, projectWidePaths.crdKustomization), [crdKustomizeConfig], projectWidePaths.crdKustomization),
    );
    edit('package.json', withFastCheck);
  }
  edit(projectWidePaths.main, (text) => registerController(text, webhookRegistration));
  files.push(...webhookNetworkPolicy(project.projectName, current(networkPolicyKustomization)));
  return files;
}

/**
 * config/default/kustomization.yaml `text` without the resources, patches and replacements
 * `before`'s webhooks need and `after`'s do not (a certificate mode switched, a kind's
 * webhooks deleted); every other entry, the user's too, stays byte for byte.
 */
export function withoutDefaultEntries(text: string, before: ProjectConfig, after: ProjectConfig): string {
  const resources = entriesWithout(defaultResources(before), defaultResources(after));
  const trimmed = removeListItems(text, 'resources', (item) => isScalar(item) && resources.includes(String(item.value)), defaultKustomization);
  const patched = removePatches(trimmed, entriesWithout(defaultPatches(before), defaultPatches(after)), defaultKustomization);
  return removeReplacements(patched, entriesWithout(defaultReplacements(before), defaultReplacements(after)), defaultKustomization);
}

/** The entries of `all` not in `kept` (patch entries compared whole). */
export function entriesWithout<T>(all: readonly T[], kept: readonly T[]): T[] {
  const keep = new Set(kept.map((entry) => JSON.stringify(entry)));
  return all.filter((entry) => !keep.has(JSON.stringify(entry)));
}

/** The fast-check range `create webhook --conversion` adds to package.json. */
const fastCheckRange = '^4.10.2';

/** package.json with fast-check among the devDependencies: the conversion tests are property tests. */
function withFastCheck(text: string): string {
  const manifest = packageManifest(text);
  if (manifest.devDependencies?.['fast-check']) return text;
  const devDependencies = { ...(manifest.devDependencies ?? {}), 'fast-check': fastCheckRange };
  manifest.devDependencies = Object.fromEntries(Object.entries(devDependencies).sort(([a], [b]) => a.localeCompare(b)));
  return `${JSON.stringify(manifest, null, 2)}\n`;
}

/**
 * package.json without the fast-check `create webhook --conversion` added, once no conversion
 * test needs it; a range the user chose is theirs and stays.
 */
export function withoutFastCheck(text: string): string {
  const manifest = packageManifest(text);
  if (manifest.devDependencies?.['fast-check'] !== fastCheckRange) return text;
  const { 'fast-check': _gone, ...devDependencies } = manifest.devDependencies;
  manifest.devDependencies = devDependencies;
  return `${JSON.stringify(manifest, null, 2)}\n`;
}

function packageManifest(text: string): { devDependencies?: Record<string, string> } & Record<string, unknown> {
  try {
    return JSON.parse(text) as { devDependencies?: Record<string, string> } & Record<string, unknown>;
  } catch {
    throw new UserError('package.json is not valid JSON', { file: 'package.json' });
  }
}
