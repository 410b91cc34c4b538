/**
 * Kinds walked in each version folder → one CustomResourceDefinition per group and kind:
 * versions, storage/served/deprecated, names and scope, subresources, printer columns,
 * selectable fields and the CRD's own metadata.
 *
 * @module
 */
import { isDeepStrictEqual } from 'node:util';
import { UserError, type Location } from '../errors.js';
import type { Marker } from '../markers/parse.js';
import { heldAs, nameConflict } from '@opgen/runtime/internal/crd-names';
import { pluralOf } from '../names/plural.js';
import type { KindSchema } from '../schema/kind.js';
import type { JSONSchemaProps } from '../schema/types.js';
import type { VersionFolder } from './discover.js';
import { fullGroup, type ProjectConfig } from '../project/model.js';
import type { CrdVersion, CustomResourceDefinition, PrinterColumn } from './types.js';

/** A Kind as one version folder declares it. */
export interface KindVersion extends KindSchema {
  group: string;
  version: string;
  folder: VersionFolder;
}

/** One CRD and what the other generators need to know about it. */
export interface AssembledCrd {
  group: string;
  kind: string;
  plural: string;
  crd: CustomResourceDefinition;
  /** The Kind in each version the CRD keeps, by version name. */
  sources: Map<string, KindVersion>;
}

export interface AssembleOptions {
  project: ProjectConfig;
  /** Written as the `opgen.dev/version` annotation of each CRD. */
  generatorVersion: string;
}

const columnTypes = ['integer', 'number', 'string', 'boolean', 'date'];

function all(markers: readonly Marker[], name: string): Marker[] {
  return markers.filter((m) => m.canonical === name);
}

function one(markers: readonly Marker[], name: string): Marker | undefined {
  return markers.find((m) => m.canonical === name);
}

/** The schema node a simple JSONPath (`.spec.replicas`) names, if any. */
export function schemaAt(schema: JSONSchemaProps, path: string): JSONSchemaProps | undefined {
  if (!path.startsWith('.')) return undefined;
  let node: JSONSchemaProps | undefined = schema;
  for (const part of path.slice(1).split('.')) {
    node = node?.properties?.[part];
    if (!node) return undefined;
  }
  return node;
}

/** Builds the CRDs; problems are added to `errors`, and a CRD with a problem is left out. */
export function assembleCrds(kinds: readonly KindVersion[], options: AssembleOptions, errors: UserError[]): AssembledCrd[] {
  const byKind = new Map<string, KindVersion[]>();
  for (const k of kinds) {
    const key = `${k.group}/${k.kind}`;
    byKind.set(key, [...(byKind.get(key) ?? []), k]);
  }
  const out: AssembledCrd[] = [];
  for (const entries of byKind.values()) {
    const crd = assembleOne(entries, options, errors);
    if (crd) out.push(crd);
  }
  // Two kinds of one group must not share a plural: their CRDs would have the same name.
  // The clash is reported where it was introduced: at a +kubebuilder:resource:path= that
  // chose the plural, else at the later declaration; the message names the other kind.
  const byName = new Map<string, AssembledCrd>();
  const ordered = out
    .map((crd) => ({ crd, at: pluralOrigin(crd) }))
    .sort((a, b) => Number(a.at.fromMarker) - Number(b.at.fromMarker) || compareLocations(a.at.location, b.at.location));
  for (const { crd, at } of ordered) {
    const name = crd.crd.metadata.name;
    const other = byName.get(name);
    if (other) {
      const first = [...other.sources.values()].map((source) => source.location).sort(compareLocations)[0]!;
      errors.push(
        new UserError(
          `${crd.kind} has the plural ${crd.plural} in ${crd.group}, which ${other.kind} (${first.file}:${first.line}) already has`,
          at.location,
          'set another plural with +kubebuilder:resource:path=<plural>',
        ),
      );
      continue;
    }
    byName.set(name, crd);
  }
  // The API server's naming rule across the CRDs of a group (a kind named like another's list
  // kind, a short name that is another's plural, …): the later declaration is reported.
  const accepted: AssembledCrd[] = [];
  for (const { crd } of ordered) {
    if (byName.get(crd.crd.metadata.name) !== crd) continue;
    const clash = nameConflict(crd.crd.spec.names, accepted.filter((other) => other.group === crd.group).map((other) => other.crd.spec.names));
    if (!clash) {
      accepted.push(crd);
      continue;
    }
    const holder = accepted.find((other) => other.group === crd.group && other.crd.spec.names === clash.holder)!;
    const held = firstDeclaration(holder);
    const ofKind = clash.reason === 'KindConflict' || clash.reason === 'ListKindConflict';
    errors.push(
      new UserError(
        `${crd.kind}: ${clash.message} (${clash.reason}): ${clash.name} is ${heldAs(clash)} (${held.file}:${held.line}) in ${crd.group}; the API server would never establish the CRD`,
        ofKind ? firstDeclaration(crd) : resourceMarker(crd) ?? firstDeclaration(crd),
        ofKind ? 'rename the kind' : 'choose other names with +kubebuilder:resource',
      ),
    );
  }
  return accepted.sort((a, b) => `${a.group}/${a.kind}`.localeCompare(`${b.group}/${b.kind}`));
}

/** Where a CRD's `+kubebuilder:resource` marker is, if it has one. */
function resourceMarker(crd: AssembledCrd): Location | undefined {
  for (const source of crd.sources.values()) {
    const marker = one(source.markers, 'kubebuilder:resource');
    if (marker) return marker.location;
  }
  return undefined;
}

/** Where a CRD's kind is first declared. */
function firstDeclaration(crd: AssembledCrd): Location {
  return [...crd.sources.values()].map((source) => source.location).sort(compareLocations)[0]!;
}

/** Where a CRD's plural comes from: its `+kubebuilder:resource:path=` marker, or else the Kind's first declaration. */
function pluralOrigin(crd: AssembledCrd): { location: Location; fromMarker: boolean } {
  const sources = [...crd.sources.values()];
  for (const source of sources) {
    const marker = one(source.markers, 'kubebuilder:resource');
    if ((marker?.value as { path?: string } | undefined)?.path !== undefined) return { location: marker!.location, fromMarker: true };
  }
  return { location: firstDeclaration(crd), fromMarker: false };
}

function compareLocations(a: Location, b: Location): number {
  return a.file.localeCompare(b.file) || (a.line ?? 0) - (b.line ?? 0) || (a.column ?? 0) - (b.column ?? 0);
}

function assembleOne(entries: KindVersion[], options: AssembleOptions, errors: UserError[]): AssembledCrd | undefined {
  const before = errors.length;
  const fail = (message: string, location: Location | undefined, hint?: string) => errors.push(new UserError(message, location, hint));
  const first = entries[0]!;
  const { group, kind } = first;

  const duplicate = new Map<string, KindVersion>();
  for (const e of entries) {
    const seen = duplicate.get(e.version);
    if (seen) fail(`${kind} is declared twice in ${group}/${e.version}`, e.location, `the other is at ${seen.location.file}:${seen.location.line}`);
    duplicate.set(e.version, e);
  }

  const kept = entries.filter((e) => !one(e.markers, 'kubebuilder:skipversion'));
  if (kept.length === 0) {
    if (entries.length === 1) fail(`+kubebuilder:skipversion on the only version of ${kind}`, one(first.markers, 'kubebuilder:skipversion')!.location, 'remove it; a CRD needs a version');
    return undefined;
  }
  kept.sort((a, b) => a.version.localeCompare(b.version));

  // CRD-wide settings may be written on any version but must agree.
  const resource = agreed(kept, 'kubebuilder:resource', kind, fail);
  const args = (resource?.value ?? {}) as { path?: string; shortName?: string[]; categories?: string[]; singular?: string; scope?: string };
  const plural = args.path ?? pluralOf(kind);
  const singular = args.singular ?? kind.toLowerCase();
  for (const [label, name] of [['plural', plural], ['singular', singular]] as const) {
    if (!/^[a-z]([-a-z0-9]*[a-z0-9])?$/.test(name)) fail(`${label} ${name} of ${kind} must be a lower-case DNS label`, resource?.location ?? first.location, 'set it with +kubebuilder:resource');
  }
  for (const short of args.shortName ?? []) {
    if (!/^[a-z]([-a-z0-9]*[a-z0-9])?$/.test(short)) fail(`short name ${short} must be a lower-case DNS label`, resource!.location);
  }
  let scope: 'Namespaced' | 'Cluster' = 'Namespaced';
  if (args.scope !== undefined) {
    if (args.scope !== 'Namespaced' && args.scope !== 'Cluster') fail(`scope ${args.scope} is neither Namespaced nor Cluster`, resource!.location);
    else scope = args.scope;
  } else {
    const fromProject = options.project.resources.find((r) => r.kind === kind && fullGroup(r) === group && r.api);
    if (fromProject?.api?.namespaced === false) scope = 'Cluster';
  }
  const listed = options.project.resources.find((r) => r.kind === kind && fullGroup(r) === group && r.plural !== plural);
  if (listed) {
    fail(
      `PROJECT lists ${kind} with plural ${listed.plural}, but its CRD's plural is ${plural}`,
      resource?.location ?? first.location,
      `set +kubebuilder:resource:path=${listed.plural} or correct PROJECT`,
    );
  }

  const annotations: Record<string, string> = { 'opgen.dev/version': options.generatorVersion };
  const labels: Record<string, string> = {};
  for (const e of kept) {
    for (const m of all(e.markers, 'kubebuilder:metadata')) {
      const value = m.value as { annotations?: string[]; labels?: string[] };
      for (const [list, into] of [[value.annotations, annotations], [value.labels, labels]] as const) {
        for (const pair of list ?? []) {
          const eq = pair.indexOf('=');
          if (eq <= 0) fail(`${m.text}: "${pair}" is not key=value`, m.location);
          else into[pair.slice(0, eq)] = pair.slice(eq + 1);
        }
      }
    }
  }

  const storage = kept.filter((e) => one(e.markers, 'kubebuilder:storageversion'));
  if (kept.length > 1 && storage.length !== 1) {
    const where = storage.length ? storage.map((e) => one(e.markers, 'kubebuilder:storageversion')!.location) : kept.map((e) => e.location);
    fail(
      storage.length
        ? `${kind} has ${storage.length} storage versions (${storage.map((e) => e.version).join(', ')}); exactly one is needed`
        : `${kind} has versions ${kept.map((e) => e.version).join(', ')} but none is marked +kubebuilder:storageversion`,
      where[0],
      'mark exactly one version +kubebuilder:storageversion',
    );
  }

  const versions: CrdVersion[] = kept.map((e) => version(e, kept.length === 1 || storage[0] === e, fail));
  if (versions.every((v) => !v.served)) fail(`every version of ${kind} is unserved`, first.location, 'serve at least one version');
  if (errors.length > before) return undefined;

  const crd: CustomResourceDefinition = {
    apiVersion: 'apiextensions.k8s.io/v1',
    kind: 'CustomResourceDefinition',
    metadata: {
      name: `${plural}.${group}`,
      annotations,
      ...(Object.keys(labels).length ? { labels } : {}),
    },
    spec: {
      group,
      names: {
        kind,
        listKind: `${kind}List`,
        plural,
        singular,
        ...(args.shortName?.length ? { shortNames: args.shortName } : {}),
        ...(args.categories?.length ? { categories: args.categories } : {}),
      },
      scope,
      versions,
    },
  };
  return { group, kind, plural, crd, sources: new Map(kept.map((e) => [e.version, e])) };
}

function agreed(
  kept: KindVersion[],
  name: string,
  kind: string,
  fail: (m: string, l: Location | undefined, h?: string) => void,
): Marker | undefined {
  const found = kept.map((e) => one(e.markers, name)).filter((m): m is Marker => Boolean(m));
  for (const m of found.slice(1)) {
    if (!isDeepStrictEqual(m.value, found[0]!.value)) {
      fail(`${m.text} differs from ${found[0]!.text} on another version of ${kind}`, m.location, 'CRD-wide markers must be the same on every version');
    }
  }
  return found[0];
}

function version(e: KindVersion, storage: boolean, fail: (m: string, l: Location | undefined, h?: string) => void): CrdVersion {
  const deprecated = one(e.markers, 'kubebuilder:deprecatedversion');
  const out: CrdVersion = {
    name: e.version,
    served: !one(e.markers, 'kubebuilder:unservedversion'),
    storage,
    schema: { openAPIV3Schema: e.schema },
  };
  if (deprecated) {
    out.deprecated = true;
    const warning = (deprecated.value as { warning?: string }).warning;
    if (warning !== undefined) out.deprecationWarning = warning;
  }
  const subresources: NonNullable<CrdVersion['subresources']> = {};
  if (one(e.markers, 'kubebuilder:subresource:status')) {
    if (!e.schema.properties?.status) fail(`+kubebuilder:subresource:status on ${e.kind}, which has no status property`, one(e.markers, 'kubebuilder:subresource:status')!.location);
    subresources.status = {};
  }
  const scale = one(e.markers, 'kubebuilder:subresource:scale');
  if (scale) {
    const args = scale.value as { specpath: string; statuspath: string; selectorpath?: string };
    const check = (path: string, prefix: string, type: string, what: string) => {
      if (!path.startsWith(prefix)) {
        fail(`${scale.text}: ${what} ${path} must start with ${prefix}`, scale.location);
        return;
      }
      const node = schemaAt(e.schema, path);
      if (!node) fail(`${scale.text}: ${what} ${path} is not a field of ${e.kind}`, scale.location);
      else if (node.type !== type) fail(`${scale.text}: ${what} ${path} must be ${type === 'integer' ? 'an integer' : 'a string'}`, scale.location);
    };
    check(args.specpath, '.spec.', 'integer', 'specpath');
    check(args.statuspath, '.status.', 'integer', 'statuspath');
    if (args.selectorpath !== undefined) check(args.selectorpath, '.status.', 'string', 'selectorpath');
    subresources.scale = {
      specReplicasPath: args.specpath,
      statusReplicasPath: args.statuspath,
      ...(args.selectorpath !== undefined ? { labelSelectorPath: args.selectorpath } : {}),
    };
  }
  if (Object.keys(subresources).length) out.subresources = subresources;

  const columns: PrinterColumn[] = [];
  for (const m of all(e.markers, 'kubebuilder:printcolumn')) {
    const c = m.value as { name: string; type: string; JSONPath: string; description?: string; format?: string; priority?: number };
    if (!columnTypes.includes(c.type)) fail(`${m.text}: column type ${c.type} is not one of ${columnTypes.join(', ')}`, m.location);
    if (!c.JSONPath.startsWith('.')) fail(`${m.text}: JSONPath ${c.JSONPath} must start with "."`, m.location);
    if (columns.some((x) => x.name === c.name)) fail(`${m.text}: a column named ${c.name} already exists`, m.location);
    columns.push({
      name: c.name,
      type: c.type,
      jsonPath: c.JSONPath,
      // Empty values are left out, as controller-gen's omitempty fields do.
      ...(c.description ? { description: c.description } : {}),
      ...(c.format ? { format: c.format } : {}),
      ...(c.priority ? { priority: c.priority } : {}),
    });
  }
  if (columns.length) out.additionalPrinterColumns = columns;

  const selectable = all(e.markers, 'kubebuilder:selectablefield');
  for (const m of selectable) {
    const path = (m.value as { JSONPath: string }).JSONPath;
    const node = schemaAt(e.schema, path);
    if (!node) fail(`${m.text}: ${path} is not a field of ${e.kind}`, m.location);
    else if (!['string', 'integer', 'boolean'].includes(node.type ?? '')) fail(`${m.text}: ${path} must be a string, integer or boolean field`, m.location);
  }
  if (selectable.length > 8) fail(`${e.kind} has ${selectable.length} selectable fields; the API server allows 8`, selectable[8]!.location);
  if (selectable.length) out.selectableFields = selectable.map((m) => ({ jsonPath: (m.value as { JSONPath: string }).JSONPath }));
  return out;
}
