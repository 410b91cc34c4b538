import { literalOpenDelimiters, releaseNamespace, type Helpers } from './actions.js';
import type { Manifest } from './input.js';
import type { Splicer } from './splice.js';

type Data = Record<string, unknown>;

/** What turns kustomize's names, namespace and labels into the release's. */
export interface Release {
  projectName: string;
  /** config/default's namespace: becomes the release namespace. */
  namespace: string;
  /** Full names of the chart's objects that carry the name prefix → the part after it. */
  suffixes: ReadonlyMap<string, string>;
  /** The full name of the manager's ServiceAccount, whose name the values may change. */
  serviceAccount: string | undefined;
  helpers: Helpers;
}

const nameLabel = 'app.kubernetes.io/name';
// Labels the chart's own helper sets (`managed-by` is Helm, not kustomize).
const helperLabels = new Set([nameLabel, 'app.kubernetes.io/managed-by', 'app.kubernetes.io/instance', 'app.kubernetes.io/version', 'helm.sh/chart']);

/** Whether strings at a path (keys from the object's root) may be references to rewrite. */
export type ReferencesAt = (path: readonly string[]) => boolean;

/**
 * One object of the kustomize output as the release's: its name, namespace and labels,
 * and every reference to another object of the chart (role bindings' subjects, the
 * service account of a pod, a DNS name in the namespace). Where `referencesAt` says no,
 * the body is copied as data (a CRD's schema may hold any text), only made safe to template.
 */
export function templateObject(object: Manifest, release: Release, splicer: Splicer, referencesAt: ReferencesAt = () => true): Data {
  const { name, namespace, labels, ...restOfMetadata } = object.metadata;
  const metadata: Data = { name: objectName(name, object.kind, release, splicer) };
  if (namespace !== undefined) {
    metadata.namespace = namespace === release.namespace ? splicer.inline(releaseNamespace) : escapeDelimiters(namespace, splicer);
  }
  metadata.labels = { [splicer.block((indent) => [release.helpers.labels(indent)])]: null, ...withoutHelperLabels(labels ?? {}) };
  for (const [key, value] of Object.entries(restOfMetadata)) metadata[key] = walkValue(value, ['metadata', key], release, splicer, () => false);
  const annotations = metadata.annotations as Data | undefined;
  const injectFrom = object.metadata.annotations?.[caInjectionAnnotation];
  if (annotations && typeof injectFrom === 'string') annotations[caInjectionAnnotation] = caInjectionSource(injectFrom, release, splicer);

  const result: Data = {};
  for (const [key, value] of Object.entries(object)) {
    result[key] = key === 'metadata' ? metadata : walkValue(value, [key], release, splicer, referencesAt);
  }
  return result;
}

/** Data copied into a template, with any `{{` in it written so Helm prints it as it is. */
export function escapeDelimiters(text: string, splicer: Splicer): string {
  return text.includes('{{') ? text.split('{{').join(splicer.inline(literalOpenDelimiters)) : text;
}

function objectName(name: string, kind: string, release: Release, splicer: Splicer): string {
  if (kind === 'ServiceAccount' && name === release.serviceAccount) return splicer.inline(release.helpers.serviceAccountName());
  const suffix = release.suffixes.get(name);
  return suffix === undefined ? escapeDelimiters(name, splicer) : splicer.inline(release.helpers.resourceName(suffix));
}

function walkValue(value: unknown, path: readonly string[], release: Release, splicer: Splicer, referencesAt: ReferencesAt): unknown {
  const references = referencesAt(path);
  if (typeof value === 'string') return references ? reference(value, release, splicer) : escapeDelimiters(value, splicer);
  if (Array.isArray(value)) return value.map((item, i) => walkValue(item, [...path, String(i)], release, splicer, referencesAt));
  if (value === null || typeof value !== 'object') return value;
  const data = value as Data;
  if (references && isSelector(data, release)) {
    return { [splicer.block((indent) => [release.helpers.selectorLabels(indent)])]: null, ...withoutHelperLabels(data as Record<string, string>) };
  }
  const result: Data = {};
  for (const [key, item] of Object.entries(data)) result[key] = walkValue(item, [...path, key], release, splicer, referencesAt);
  return result;
}

/** A string that names the namespace or an object of the chart becomes the release's. */
function reference(text: string, release: Release, splicer: Splicer): string {
  if (text === release.namespace) return splicer.inline(releaseNamespace);
  if (text === release.serviceAccount) return splicer.inline(release.helpers.serviceAccountName());
  const suffix = release.suffixes.get(text);
  if (suffix !== undefined) return splicer.inline(release.helpers.resourceName(suffix));
  // Service DNS names: <service>.<namespace>.svc[.cluster.local], the Service named as the release names it.
  const dns = `.${release.namespace}.svc`;
  const escaped = escapeDelimiters(text, splicer);
  if (!escaped.includes(dns)) return escaped;
  const [host, ...rest] = escaped.split(dns);
  const service = release.suffixes.get(host!);
  const name = service === undefined ? host : splicer.inline(release.helpers.resourceName(service));
  return [name, ...rest].join(`.${splicer.inline(releaseNamespace)}.svc`);
}

/** cert-manager's cainjector reads the CA of the Certificate this annotation names. */
const caInjectionAnnotation = 'cert-manager.io/inject-ca-from';

/**
 * `<namespace>/<certificate>` of the CA injection annotation, as the release names and places
 * the chart's Certificate (a Certificate the chart does not have stays as written).
 */
function caInjectionSource(value: string, release: Release, splicer: Splicer): string {
  const [namespace, name, ...more] = value.split('/');
  const suffix = name === undefined ? undefined : release.suffixes.get(name);
  if (more.length > 0 || namespace !== release.namespace || suffix === undefined) return escapeDelimiters(value, splicer);
  return `${splicer.inline(releaseNamespace)}/${splicer.inline(release.helpers.resourceName(suffix))}`;
}

/** Label maps that select the project's pods (Deployment, Service, ServiceMonitor, NetworkPolicy). */
function isSelector(data: Data, release: Release): boolean {
  return data[nameLabel] === release.projectName && Object.values(data).every((v) => typeof v === 'string');
}

/** The labels left once the chart's helpers have written theirs (kustomize's managed-by goes). */
function withoutHelperLabels(labels: Record<string, string>): Record<string, string> {
  return Object.fromEntries(Object.entries(labels).filter(([key]) => !helperLabels.has(key)));
}
