import { join } from 'node:path';
import { boilerplatePath } from '../generators/scaffold/init.js';
import { certificateSwitch, certificateSwitchPaths, type CertificateSwitch } from '../generators/scaffold/certificate-switch.js';
import { webhookResources } from '../generators/scaffold/webhook.js';
import type { ProjectConfig } from '../project/model.js';
import { certificateMode, withCertificateMode, type CertificateMode } from '../project/webhooks.js';
import { readIfExists } from '../read-if-exists.js';

/** What `opgen edit --webhook-certificates` changes. */
export interface CertificatesEdit extends CertificateSwitch {
  /** PROJECT's model with the mode recorded. */
  project: ProjectConfig;
  /** Set when the project already uses the mode asked for: the one line said instead of a plan. */
  unchanged?: string;
  /** What the user does next, one paragraph each. */
  notes: string[];
}

/**
 * `--webhook-certificates <mode>` on `project` (read from `dir`): PROJECT's mode switched
 * and the files that depend on it, read from disk, rewritten; nothing when `mode` is not
 * given or already the project's.
 */
export async function certificatesEdit(dir: string, project: ProjectConfig, mode: CertificateMode | undefined, force: boolean): Promise<CertificatesEdit> {
  const nothing = { project, updates: [], deletes: [], kept: [], notes: [] };
  if (mode === undefined) return nothing;
  const hasWebhooks = webhookResources(project).length > 0;
  if (certificateMode(project) === mode) {
    const unchanged = hasWebhooks ? `The project's webhooks already use ${mode} certificates; nothing to change.` : `PROJECT already records ${mode} certificates for the first webhook; nothing to change.`;
    return { ...nothing, unchanged };
  }
  const after = withCertificateMode(project, mode);
  const boilerplate = (await readIfExists(join(dir, boilerplatePath))) ?? '';
  const disk = new Map<string, string | undefined>();
  for (const path of certificateSwitchPaths(project, after)) disk.set(path, await readIfExists(join(dir, path)));
  const change = certificateSwitch(project, after, (path) => disk.get(path), { boilerplate, force });
  return { project: after, ...change, notes: notesFor(mode, hasWebhooks) };
}

function notesFor(mode: CertificateMode, hasWebhooks: boolean): string[] {
  if (!hasWebhooks) return [`The project has no webhooks yet: opgen create webhook wires ${mode} certificates for the first one.`];
  if (mode === 'cert-manager') {
    return ['Next: the cluster needs cert-manager (https://cert-manager.io/docs/installation/) before you deploy; a running manager switches when redeployed.'];
  }
  return ['Next: redeploy; the manager makes its own certificates. The Issuer and Certificate cert-manager kept for a deployed project stay in the cluster until you delete them.'];
}
