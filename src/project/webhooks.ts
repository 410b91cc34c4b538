import { UserError } from '../errors.js';
import { projectFileName, type ProjectConfig, type Resource } from './model.js';

/**
 * The webhooks of one resource, as kubebuilder's PROJECT records them under the resource's
 * `webhooks:` key (`defaulting`, `validation`, `conversion`, `spoke`, the custom paths of
 * kubebuilder 4, `webhookVersion: v1`).
 */
export interface ResourceWebhooks {
  defaulting: boolean;
  validation: boolean;
  conversion: boolean;
  /** The versions converted to and from this one, the hub (`--spoke`). */
  spoke: string[];
  /** `--defaulting-path`: served there instead of controller-runtime's `/mutate-…`. */
  defaultingPath?: string;
  /** `--validation-path`: served there instead of `/validate-…`. */
  validationPath?: string;
}

/** The webhooks PROJECT records for `resource`, or undefined when it has none. */
export function webhooksOf(resource: Resource): ResourceWebhooks | undefined {
  const data = resource.extra.webhooks;
  if (data === undefined || data === null) return undefined;
  const where = `${resource.kind} (${resource.group}/${resource.version})`;
  const bad = (what: string): never => {
    throw new UserError(`"webhooks" of ${where}: ${what}`, { file: projectFileName });
  };
  if (typeof data !== 'object' || Array.isArray(data)) bad('must be a mapping');
  const record = data as Record<string, unknown>;
  const flag = (key: string) => {
    const value = record[key] ?? false;
    return typeof value === 'boolean' ? value : bad(`"${key}" must be true or false`);
  };
  const path = (key: string) => {
    const value = record[key];
    if (value === undefined) return undefined;
    return typeof value === 'string' && value.startsWith('/') ? value : bad(`"${key}" must be a path starting with /`);
  };
  const spoke = record.spoke ?? [];
  if (!Array.isArray(spoke) || spoke.some((v) => typeof v !== 'string')) bad('"spoke" must be a list of versions');
  const webhooks: ResourceWebhooks = {
    defaulting: flag('defaulting'),
    validation: flag('validation'),
    conversion: flag('conversion'),
    spoke: spoke as string[],
  };
  const defaultingPath = path('defaultingPath');
  const validationPath = path('validationPath');
  if (defaultingPath) webhooks.defaultingPath = defaultingPath;
  if (validationPath) webhooks.validationPath = validationPath;
  return webhooks;
}

/**
 * `resource` with `webhooks` recorded. Keys in kubebuilder's order (its YAML library sorts
 * them), so a PROJECT written by either tool reads the same.
 */
export function withWebhooks(resource: Resource, webhooks: ResourceWebhooks): Resource {
  const record: Record<string, unknown> = {
    ...(webhooks.conversion ? { conversion: true } : {}),
    ...(webhooks.defaulting ? { defaulting: true } : {}),
    ...(webhooks.defaultingPath ? { defaultingPath: webhooks.defaultingPath } : {}),
    ...(webhooks.spoke.length ? { spoke: [...webhooks.spoke] } : {}),
    ...(webhooks.validation ? { validation: true } : {}),
    ...(webhooks.validationPath ? { validationPath: webhooks.validationPath } : {}),
    webhookVersion: 'v1',
  };
  return { ...resource, extra: { ...resource.extra, webhooks: record } };
}

/** `resource` with no webhooks recorded: its `webhooks` key gone, as before `create webhook`. */
export function withoutWebhooks(resource: Resource): Resource {
  const { webhooks: _gone, ...extra } = resource.extra;
  return { ...resource, extra };
}

/** How the webhook server gets its certificate (webhooks.md §4). */
export type CertificateMode = 'built-in' | 'cert-manager';

/** The PROJECT key of the mode, written only for cert-manager (built-in is the default). */
export const certificateModeKey = 'webhookCertificates';

/** The project's certificate mode, as PROJECT records it. */
export function certificateMode(project: ProjectConfig): CertificateMode {
  const value = project.extra[certificateModeKey];
  if (value === undefined || value === 'built-in') return 'built-in';
  if (value === 'cert-manager') return 'cert-manager';
  throw new UserError(`"${certificateModeKey}" must be built-in or cert-manager, not ${JSON.stringify(value)}`, { file: projectFileName });
}

/** `project` with `mode` recorded. */
export function withCertificateMode(project: ProjectConfig, mode: CertificateMode): ProjectConfig {
  const { [certificateModeKey]: _old, ...extra } = project.extra;
  return { ...project, extra: mode === 'cert-manager' ? { ...extra, [certificateModeKey]: mode } : extra };
}
