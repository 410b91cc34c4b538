import { basename } from 'node:path';
import { locatePath } from '../crd/locate.js';
import { crdPath } from '../generators/crd.js';
import type { AssembledCrd } from '../crd/assemble.js';
import { type Location, UserError } from '../errors.js';
import type { JSONSchemaProps } from '../schema/types.js';
import { compareCrds } from './compare-crd.js';
import type { ReleasedApi } from './base.js';
import { breakingRules, type Change, isBreaking } from './rules.js';

export interface CompatOptions {
  /** `--allow-breaking`: breaking rules accepted on purpose. */
  allowBreaking?: ReadonlySet<string>;
  /** `--allow-alpha-changes`: breaking changes to versions served as alpha in the release are accepted. */
  allowAlphaChanges?: boolean;
}

export interface CompatReport {
  /** Breaking changes not accepted: one located error each. */
  errors: UserError[];
  /** Changes that break nothing. */
  compatible: Change[];
  /** Breaking changes accepted by `--allow-breaking` or `--allow-alpha-changes`. */
  allowed: Change[];
}

/**
 * Classifies every change from the released API to the generated CRDs; each breaking change
 * is an error at the TypeScript declaration of the field (or version, or Kind) it is about.
 */
export function checkCompatibility(
  released: ReleasedApi,
  crds: readonly AssembledCrd[],
  locations: WeakMap<JSONSchemaProps, Location>,
  options: CompatOptions = {},
): CompatReport {
  const report: CompatReport = { errors: [], compatible: [], allowed: [] };
  const generated = new Map(crds.map((crd) => [crd.crd.metadata.name, crd]));
  for (const [name, { crd: before, file }] of released.crds) {
    const after = generated.get(name);
    const changes: { change: Change; at: Location }[] = [];
    if (!after) {
      const kind = before.spec?.names?.kind ?? name;
      changes.push({ change: { rule: 'kind-removed', kind, path: '', detail: `CRD ${name} removed` }, at: { file } });
    } else {
      for (const change of compareCrds(before, after.crd)) changes.push({ change, at: locate(after, change, locations) });
    }
    for (const { change, at } of changes) {
      const servedAlpha = change.version !== undefined && /alpha/.test(change.version) && (before.spec.versions ?? []).some((v) => v.name === change.version && v.served);
      if (!isBreaking(change.rule)) {
        report.compatible.push(change);
        continue;
      }
      if (options.allowBreaking?.has(change.rule) || (options.allowAlphaChanges && servedAlpha)) {
        report.allowed.push(change);
        continue;
      }
      report.errors.push(
        new UserError(
          `${describe(change)} breaks the API released as ${released.label} (${change.rule})`,
          at,
          `--allow-breaking=${change.rule} accepts it on purpose`,
        ),
      );
    }
  }
  for (const crd of crds) {
    if (released.crds.has(crd.crd.metadata.name) || released.identical.has(basename(crdPath(crd)))) continue;
    report.compatible.push({ rule: 'kind-added', kind: crd.kind, path: '', detail: `CRD ${crd.crd.metadata.name} added` });
  }
  return report;
}

/** `BookStore v1alpha1 spec.size: maximum 10 → 5`. */
export function describe(change: Change): string {
  const where = [change.kind, change.version, change.path].filter(Boolean).join(' ');
  return `${where}: ${change.detail}`;
}

/** The declaration a change is about: the field, else its nearest declared parent, else the Kind in that version. */
function locate(crd: AssembledCrd, change: Change, locations: WeakMap<JSONSchemaProps, Location>): Location {
  const source = (change.version && crd.sources.get(change.version)) || [...crd.sources.values()][0]!;
  if (!change.path) return source.location;
  const version = crd.crd.spec.versions.find((v) => v.name === source.version);
  return (version && locatePath(version.schema.openAPIV3Schema, change.path, locations)) ?? source.location;
}

/**
 * The rules `--allow-breaking=a,b` names.
 *
 * @throws UserError naming an unknown rule and the known ones.
 */
export function parseAllowBreaking(value: string | undefined): Set<string> {
  const names = (value ?? '').split(',').map((n) => n.trim()).filter(Boolean);
  for (const name of names) {
    if (!Object.hasOwn(breakingRules, name)) throw new UserError(`--allow-breaking: unknown rule ${name}`, undefined, `known: ${Object.keys(breakingRules).join(', ')}`);
  }
  return new Set(names);
}
