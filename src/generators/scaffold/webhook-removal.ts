import { UserError } from '../../errors.js';
import { fullGroup, projectFileName, sameGvk, type ProjectConfig, type Resource } from '../../project/model.js';
import { webhooksOf, withCertificateMode, withoutWebhooks, withWebhooks } from '../../project/webhooks.js';
import type { GeneratedFile } from '../../writer/index.js';
import { projectWidePaths } from './api-updates.js';
import { removeResources } from './config/kustomize.js';
import { networkPolicyKustomization, webhookPolicyPath, withoutWebhookPolicy } from './config/webhook-network-policy.js';
import {
  addPatches,
  conversionPatchEntry,
  crdKustomizeConfig,
  defaultPatches,
  removeConfigurations,
  removePatches,
  webhookConfigFiles,
  webhookRbacResources,
} from './config/webhook.js';
import { unregisterController } from './unregister-controller.js';
import { defaultKustomization, entriesWithout, webhookProjectPaths, webhookRegistration, withoutDefaultEntries, withoutFastCheck } from './webhook-updates.js';
import { webhookFiles, webhookResources, webhookSetup, webhookSetupFile } from './webhook.js';

/** What `opgen manifests` writes from the `+kubebuilder:webhook` markers. */
export const webhookManifests = 'config/webhook/manifests.yaml';

/** What deleting a kind version does to the project's webhooks. */
export interface WebhookRemoval {
  /** Files rewritten, whole. */
  updates: GeneratedFile[];
  deletes: string[];
  /** The user's files (changed since opgen wrote them), kept without --force. */
  kept: string[];
  /** What the user must finish by hand, one line each. */
  notes: string[];
}

/**
 * PROJECT's model without `resource`: its record gone, the hub it is a spoke of converting
 * the other spokes only (no conversion left when it was the last), and the certificate mode
 * forgotten with the last webhook, as in a project that never had one.
 *
 * @throws UserError when `resource` is the hub of a conversion whose spokes remain.
 */
export function projectWithoutKind(project: ProjectConfig, resource: Resource): ProjectConfig {
  const own = webhooksOf(resource);
  if (own?.conversion) {
    const spokes = project.resources.filter((r) => sameKind(r, resource) && own.spoke.includes(r.version)).map((r) => r.version);
    if (spokes.length > 0) {
      throw new UserError(
        `${resource.kind} ${resource.version} is the hub of its conversion webhook, and its spoke${spokes.length > 1 ? 's' : ''} ${spokes.join(', ')} remain${spokes.length > 1 ? '' : 's'}; nothing was deleted`,
        { file: projectFileName },
        `they convert through it; delete them first: opgen delete api --group ${resource.group} --version ${spokes[0]} --kind ${resource.kind}`,
      );
    }
  }
  const resources = project.resources.filter((r) => !sameGvk(r, resource)).map((r) => (isHubOf(r, resource) ? withoutSpoke(r, resource.version) : r));
  const after = { ...project, resources };
  const lastWebhook = webhookResources(project).length > 0 && webhookResources(after).length === 0;
  return lastWebhook ? withCertificateMode(after, 'built-in') : after;
}

/** The files {@link webhookRemoval} may read, rewrite or delete. */
export function webhookRemovalPaths(project: ProjectConfig, resource: Resource, boilerplate: string): string[] {
  const hub = project.resources.find((r) => isHubOf(r, resource));
  return [
    ...webhookFiles({ project, resource, boilerplate }).map((f) => f.path),
    ...(hub ? webhookFiles({ project, resource: hub, boilerplate }).map((f) => f.path) : []),
    ...webhookConfigFiles(project).map((f) => f.path),
    webhookSetupFile,
    webhookManifests,
    ...webhookProjectPaths,
    networkPolicyKustomization,
    webhookPolicyPath,
  ];
}

/**
 * The inverse of `create webhook` for `resource`, deleted from `before` to give `after`
 * ({@link projectWithoutKind}): its handler files and tests (a file the user changed kept
 * unless `force`), its hub's conversion files rewritten for the remaining spokes when still
 * as opgen wrote them, and the project-wide files recomputed from `after` with the code of
 * `create webhook`: src/webhooks/setup.ts and the config/ wiring rewritten, or, with the
 * last webhook, removed with their kustomization entries, their registration in src/main.ts
 * and the fast-check the conversion tests needed. `current` gives each file's text now.
 */
export function webhookRemoval(
  before: ProjectConfig,
  after: ProjectConfig,
  resource: Resource,
  current: (path: string) => string | undefined,
  options: { boilerplate: string; force: boolean },
): WebhookRemoval {
  const removal: WebhookRemoval = { updates: [], deletes: [], kept: [], notes: [] };
  const hub = before.resources.find((r) => isHubOf(r, resource));
  if (!webhooksOf(resource) && !hub) return removal;
  const { boilerplate, force } = options;
  const write = (path: string, content: string) => {
    if (current(path) !== content) removal.updates.push({ path, content, ownership: 'generated' });
  };
  const edit = (path: string, change: (text: string) => string) => {
    const text = current(path);
    if (text !== undefined) write(path, change(text));
  };
  const remove = (path: string) => {
    if (current(path) !== undefined) removal.deletes.push(path);
  };
  const scaffolded = (file: { path: string; texts: string[] }) => {
    const text = current(file.path);
    if (text === undefined) return;
    if (force || file.texts.includes(text)) removal.deletes.push(file.path);
    else removal.kept.push(file.path);
  };

  for (const file of writtenFiles(before, resource, boilerplate)) scaffolded(file);
  if (hub) {
    const rewritten = new Map(webhookFiles({ project: after, resource: after.resources.find((r) => sameGvk(r, hub))!, boilerplate }).map((f) => [f.path, f.content]));
    for (const file of writtenFiles(before, hub, boilerplate)) {
      const next = rewritten.get(file.path);
      const text = current(file.path);
      if (next === undefined) scaffolded(file);
      else if (text !== undefined && file.texts.includes(text)) write(file.path, next);
      else if (text !== undefined && !file.texts.includes(next)) {
        removal.notes.push(`  kept ${file.path}: you changed it since opgen wrote it; take ${resource.version} out of it by hand (the hub no longer converts it)`);
      }
    }
  }
  if (webhookResources(before).length === 0) return removal;

  const remaining = webhookResources(after);
  const converts = remaining.some(({ webhooks }) => webhooks.conversion);
  if (remaining.length > 0) write(webhookSetupFile, webhookSetup(after, boilerplate).content);
  else remove(webhookSetupFile);
  const config = new Map(webhookConfigFiles(after).map((f) => [f.path, f.content]));
  for (const file of webhookConfigFiles(before)) {
    const next = config.get(file.path);
    if (next === undefined) remove(file.path);
    else write(file.path, next);
  }
  if (!remaining.some(({ webhooks }) => webhooks.defaulting || webhooks.validation)) remove(webhookManifests);

  // A kind's conversion gone changes the CA injection patch's target: the new entry goes in.
  edit(defaultKustomization, (text) => addPatches(withoutDefaultEntries(text, before, after), defaultPatches(after), defaultKustomization));
  if (remaining.length === 0) {
    edit(projectWidePaths.rbacKustomization, (text) => removeResources(text, webhookRbacResources, projectWidePaths.rbacKustomization));
    edit(projectWidePaths.main, (text) => unregisterController(text, webhookRegistration));
    edit(networkPolicyKustomization, withoutWebhookPolicy);
    remove(webhookPolicyPath);
  }
  const conversionPatches = (project: ProjectConfig) =>
    webhookResources(project).filter(({ webhooks }) => webhooks.conversion).map(({ resource: r }) => conversionPatchEntry(r.plural));
  edit(projectWidePaths.crdKustomization, (text) => {
    const trimmed = removePatches(text, entriesWithout(conversionPatches(before), conversionPatches(after)), projectWidePaths.crdKustomization);
    return converts ? trimmed : removeConfigurations(trimmed, [crdKustomizeConfig], projectWidePaths.crdKustomization);
  });
  if (!converts && webhookResources(before).some(({ webhooks }) => webhooks.conversion)) edit('package.json', withoutFastCheck);
  for (const path of removal.kept.filter((p) => /_webhook\.ts$/.test(p))) {
    removal.notes.push(`  (while ${path} is there, opgen manifests still writes its webhook configuration entries)`);
  }
  return removal;
}

/**
 * The handler files opgen may have written for `resource`'s webhooks, each with every text it
 * may have had: a handler's webhooks are named after its group when a kind of the same name
 * and version in another group had webhooks first, and PROJECT does not record which came first.
 */
function writtenFiles(project: ProjectConfig, resource: Resource, boilerplate: string): { path: string; texts: string[] }[] {
  const first = { ...project, resources: project.resources.map((r) => (sameGvk(r, resource) ? r : withoutWebhooks(r))) };
  const variants = [webhookFiles({ project, resource, boilerplate }), webhookFiles({ project: first, resource, boilerplate })];
  return variants[0]!.map((file, i) => ({ path: file.path, texts: [...new Set(variants.map((files) => files[i]!.content))] }));
}

/** Another version of the same kind (same group and kind). */
function sameKind(a: Resource, b: Resource): boolean {
  return a.version !== b.version && a.kind === b.kind && fullGroup(a) === fullGroup(b);
}

/** Whether `hub` converts `spoke` (PROJECT records `spoke`'s version among its spokes). */
function isHubOf(hub: Resource, spoke: Resource): boolean {
  const webhooks = sameKind(hub, spoke) ? webhooksOf(hub) : undefined;
  return Boolean(webhooks?.conversion && webhooks.spoke.includes(spoke.version));
}

/** `hub` converting one spoke fewer; without its last spoke it converts nothing. */
function withoutSpoke(hub: Resource, version: string): Resource {
  const webhooks = webhooksOf(hub)!;
  const spoke = webhooks.spoke.filter((v) => v !== version);
  const left = spoke.length > 0 ? { ...webhooks, spoke } : { ...webhooks, conversion: false, spoke };
  return left.defaulting || left.validation || left.conversion ? withWebhooks(hub, left) : withoutWebhooks(hub);
}
