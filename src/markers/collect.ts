/**
 * Collects the RBAC and webhook markers of a project: a cheap scan of every comment line
 * under `src/` that starts with `+kubebuilder:rbac`, `+kubebuilder:webhook` or
 * `+kubebuilder:webhookconfiguration`, read with the marker grammar; outside `src/api` (and
 * the imported API types of `src/external`), other markers of opgen's are refused.
 *
 * @module
 */
import { UserError, type Location } from '../errors.js';
import { externalApiRoot } from '../project/model.js';
import { findMarkerDef, parseMarker } from './parse.js';
import type { JsonArg } from './scanner.js';
import type { RbacMarker, WebhookMarker, WebhookRuleMarker } from './types.js';

const candidate = /^(\s*(?:\/\/+|\/\*+|\*+)\s*)\+([A-Za-z].*?)\s*(?:\*\/\s*)?$/;
const collected = /^kubebuilder:(rbac|webhook|webhookconfiguration)(:|=|$)/;
/** Namespaces opgen reads: an unknown marker there is a mistake, not another tool's. */
const owned = /^(kubebuilder|k8s):/;

export interface PackageMarkers {
  rbac: RbacMarker[];
  webhooks: WebhookMarker[];
  errors: UserError[];
}

/**
 * Scans files (project-relative path → text), in the order given. Outside `src/api`, where
 * no declaration reads them, every other marker opgen knows, and any in the `kubebuilder:`
 * and `k8s:` namespaces, is an error: a misspelt `+kubebuilder:rbca` or a stray `+optional`
 * is reported rather than silently missing.
 */
export function collectPackageMarkers(files: ReadonlyMap<string, string>): PackageMarkers {
  const out: PackageMarkers = { rbac: [], webhooks: [], errors: [] };
  for (const [file, text] of files) {
    if (!text.includes('+')) continue;
    const lines = text.split('\n');
    for (const [i, line] of lines.entries()) {
      const m = candidate.exec(line);
      if (!m) continue;
      const location: Location = { file, line: i + 1, column: m[1]!.length + 1 };
      const inApi = file.startsWith('src/api/') || file.startsWith(`${externalApiRoot}/`);
      if (inApi && !collected.test(m[2]!)) continue;
      // Outside src/api, every marker opgen knows is checked (`+optional` in a controller is
      // lost as surely as a misspelt `+kubebuilder:rbca`); others' markers are theirs.
      if (!owned.test(m[2]!) && !findMarkerDef(m[2]!)) continue;
      try {
        const marker = parseMarker(m[2]!, location);
        if (!collected.test(marker.name)) {
          if (!marker.def.ignored) {
            throw new UserError(`${marker.text} has no meaning outside src/api`, location, 'put it above a type or property in src/api');
          }
          continue;
        }
        const value = marker.value as Record<string, unknown>;
        if (marker.name === 'kubebuilder:rbac') out.rbac.push(rbac(value, location));
        else if (marker.name === 'kubebuilder:webhookconfiguration') {
          out.webhooks.push({
            marker: 'webhookconfiguration',
            mutating: value.mutating as boolean,
            ...(value.name !== undefined ? { name: value.name as string } : {}),
            location,
          });
        } else out.webhooks.push(webhook(marker.text, value, location));
      } catch (error) {
        if (!(error instanceof UserError)) throw error;
        out.errors.push(error);
      }
    }
  }
  return out;
}

function rbac(value: Record<string, unknown>, location: Location): RbacMarker {
  const rule: RbacMarker = { verbs: value.verbs as string[], location };
  for (const key of ['groups', 'resources', 'resourceNames', 'urls'] as const) {
    if (value[key] !== undefined) rule[key] = value[key] as string[];
  }
  if (value.namespace !== undefined) rule.namespace = value.namespace as string;
  if (value.roleName !== undefined) rule.roleName = value.roleName as string;
  if (!rule.verbs.length || rule.verbs.some((v) => v === '')) {
    throw new UserError(`+kubebuilder:rbac needs verbs`, location, 'e.g. verbs=get;list;watch');
  }
  if (!rule.resources?.length && !rule.urls?.length) {
    throw new UserError('+kubebuilder:rbac names neither resources nor urls', location, 'add resources=<plural> (with groups=) or urls=/path');
  }
  return rule;
}

function webhook(text: string, value: Record<string, unknown>, location: Location): WebhookRuleMarker {
  const path = value.path as string | undefined;
  const url = value.url as string | undefined;
  if ((path === undefined) === (url === undefined)) {
    throw new UserError(`${text}: needs exactly one of path and url`, location, 'path=/validate-… for the webhook service, or url="https://…"');
  }
  const out: WebhookRuleMarker = {
    marker: 'webhook',
    mutating: value.mutating as boolean,
    failurePolicy: value.failurePolicy as string,
    groups: value.groups as string[],
    resources: value.resources as string[],
    verbs: value.verbs as string[],
    versions: value.versions as string[],
    name: value.name as string,
    admissionReviewVersions: value.admissionReviewVersions as string[],
    location,
  };
  const optional = ['matchPolicy', 'sideEffects', 'timeoutSeconds', 'path', 'url', 'webhookVersions', 'reinvocationPolicy', 'serviceName', 'serviceNamespace', 'servicePort'] as const;
  for (const key of optional) if (value[key] !== undefined) (out as unknown as Record<string, unknown>)[key] = value[key];
  for (const key of ['namespaceSelector', 'objectSelector', 'matchConditions'] as const) {
    const json = value[key] as JsonArg | undefined;
    if (json !== undefined) out[key] = { value: json.value, raw: json.raw, column: (location.column ?? 1) + 1 + json.offset };
  }
  return out;
}
