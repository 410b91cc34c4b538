import { loadReleasedApi } from '../compat/base.js';
import { checkCompatibility, describe, parseAllowBreaking } from '../compat/check.js';
import type { AssembledCrd } from '../crd/assemble.js';
import type { Location, UserError } from '../errors.js';
import type { JSONSchemaProps } from '../schema/types.js';
import type { GeneratedFile } from '../writer/index.js';

const crdDir = 'config/crd/bases/';

/** What `--check` prints when it has no release to compare with. */
export function noReleaseNotice(why: string): string {
  return `no released API to compare with (${why}); skipped the breaking-change check (--base <ref|dir> names one)`;
}

/**
 * `opgen manifests --check`'s comparison with the released API: prints what changed
 * compatibly (and what was accepted by flag) and returns one error per breaking change.
 * Without a release to compare with (no tag yet) it says so and compares nothing.
 */
export function compareWithRelease(
  root: string,
  crds: readonly AssembledCrd[],
  locations: WeakMap<JSONSchemaProps, Location>,
  files: readonly GeneratedFile[],
  options: { base?: string; allowBreaking?: string; allowAlphaChanges?: boolean },
): UserError[] {
  const allowBreaking = parseAllowBreaking(options.allowBreaking);
  const generated = new Map(files.filter((f) => f.path.startsWith(crdDir)).map((f) => [f.path.slice(crdDir.length), f.content]));
  const released = loadReleasedApi(root, options.base, generated);
  if ('none' in released) {
    process.stdout.write(`${noReleaseNotice(released.none)}\n`);
    return [];
  }
  const report = checkCompatibility(released, crds, locations, { allowBreaking, allowAlphaChanges: options.allowAlphaChanges });
  for (const change of report.compatible) process.stdout.write(`compatible with ${released.label}: ${describe(change)} (${change.rule})\n`);
  for (const change of report.allowed) process.stdout.write(`breaking but allowed: ${describe(change)} (${change.rule})\n`);
  return report.errors;
}
