import { isScalar } from 'yaml';
import { projectFileName, type ProjectConfig } from '../../project/model.js';
import { certificateMode } from '../../project/webhooks.js';
import type { GeneratedFile } from '../../writer/index.js';
import { projectWidePaths } from './api-updates.js';
import { removeListItems } from './config/kustomize.js';
import { webhookConfigFiles, webhookRbacResources } from './config/webhook.js';
import { defaultKustomization, webhookProjectPaths, webhookProjectUpdates, withoutDefaultEntries } from './webhook-updates.js';
import { webhookResources, webhookSetupFile } from './webhook.js';

/** What switching the webhook certificate mode does to the project's files. */
export interface CertificateSwitch {
  /** Files rewritten, whole. */
  updates: GeneratedFile[];
  /** The other mode's files, still as opgen wrote them. */
  deletes: string[];
  /** The user's files (changed since opgen wrote them), left as they are without `force`. */
  kept: string[];
}

/** The files {@link certificateSwitch} may read, rewrite or delete. */
export function certificateSwitchPaths(before: ProjectConfig, after: ProjectConfig): string[] {
  const config = [...webhookConfigFiles(before), ...webhookConfigFiles(after)].map((f) => f.path);
  return [...new Set([...config, ...webhookProjectPaths, webhookSetupFile])];
}

/**
 * The project `before` with its webhooks served by the certificates `after` records, as if
 * `create webhook` had used that mode from the start: the entries only the old mode needs
 * taken out of config/default and config/rbac's kustomizations (the user's other entries
 * stay byte for byte), then the project-wide files of `create webhook` computed from `after`
 * ({@link webhookProjectUpdates}) where they differ from the old mode's, and the old mode's
 * whole files (config/certmanager, the built-in certificates' RBAC) deleted. A whole file the user changed since opgen wrote it
 * is kept unless `force`. Without webhooks nothing changes but PROJECT: the mode waits for
 * the first `create webhook`. PROJECT, `after`, is the caller's to write (with its other
 * settings). `current` gives each file's text now.
 */
export function certificateSwitch(
  before: ProjectConfig,
  after: ProjectConfig,
  current: (path: string) => string | undefined,
  options: { boilerplate: string; force: boolean },
): CertificateSwitch {
  const result: CertificateSwitch = { updates: [], deletes: [], kept: [] };
  if (webhookResources(before).length === 0) return result;
  const trimmed = new Map<string, string>();
  const trim = (path: string, change: (text: string) => string) => {
    const text = current(path);
    if (text !== undefined) trimmed.set(path, change(text));
  };
  trim(defaultKustomization, (text) => withoutDefaultEntries(text, before, after));
  if (certificateMode(before) === 'built-in' && certificateMode(after) !== 'built-in') {
    const rbac = projectWidePaths.rbacKustomization;
    trim(rbac, (text) => removeListItems(text, 'resources', (item) => isScalar(item) && webhookRbacResources.includes(String(item.value)), rbac));
  }

  const written = new Map(webhookConfigFiles(before).map((f) => [f.path, f.content]));
  const changedByUser = (path: string) => {
    const text = current(path);
    return text !== undefined && text !== written.get(path) && !options.force;
  };
  const next = webhookProjectUpdates(after, options.boilerplate, (path) => trimmed.get(path) ?? current(path));
  // What the new mode adds nothing to (config/rbac for cert-manager) is written as trimmed.
  for (const [path, content] of trimmed) {
    if (!next.some((f) => f.path === path)) next.push({ path, content, ownership: 'generated' });
  }
  const wholeFiles = new Set(webhookConfigFiles(after).map((f) => f.path));
  // What create webhook makes the same in both modes (the Service, setup.ts, src/main.ts) is left as it is.
  const either = new Map(webhookProjectUpdates(before, options.boilerplate, current).map((f) => [f.path, f.content]));
  for (const file of next) {
    if (file.path === projectFileName || current(file.path) === file.content || either.get(file.path) === file.content) continue;
    if (wholeFiles.has(file.path) && changedByUser(file.path)) result.kept.push(file.path);
    else result.updates.push(file);
  }
  for (const path of written.keys()) {
    if (wholeFiles.has(path) || current(path) === undefined) continue;
    if (changedByUser(path)) result.kept.push(path);
    else result.deletes.push(path);
  }
  result.kept.sort();
  return result;
}
