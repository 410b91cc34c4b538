import { merge3 } from './merge3.js';
import type { ScaffoldFiles } from './scaffold-version.js';

/** What `opgen upgrade` does with one file. */
export type UpgradeAction = 'CREATE' | 'UPDATE' | 'MERGE' | 'CONFLICT' | 'SKIP' | 'DELETE';

export interface UpgradeStep {
  path: string;
  action: UpgradeAction;
  /** The file's new content (not for SKIP and DELETE). */
  content?: string;
  executable?: boolean;
  /** Why a file is skipped, for the report. */
  note?: string;
}

/**
 * The upgrade of each scaffolded file, from three versions of it: `ancestor` (what the
 * project's opgen scaffolded), `target` (what the running opgen scaffolds) and `onDisk`
 * (undefined: absent). A file the user left as scaffolded is replaced; one both changed is
 * merged, unless `rewritten` says the new scaffold rewrote it (then it stays the user's,
 * with that note); one the new scaffold drops goes only if the user never changed it. Files equal on
 * disk and in the target, and files neither opgen changed, are left out.
 */
export function planUpgrade(
  ancestor: ScaffoldFiles,
  target: ScaffoldFiles,
  onDisk: ReadonlyMap<string, string | undefined>,
  versions: { from: string; to: string },
  rewritten: (path: string) => string | undefined = () => undefined,
): UpgradeStep[] {
  const steps: UpgradeStep[] = [];
  const paths = [...new Set([...ancestor.keys(), ...target.keys()])].sort();
  for (const path of paths) {
    const old = ancestor.get(path)?.content;
    const next = target.get(path);
    const current = onDisk.get(path);
    const note = rewritten(path);
    const step = note && current !== undefined && old !== undefined && current !== old && next !== undefined && current !== next.content
      ? { path, action: 'SKIP' as const, note }
      : decide(path, old, next?.content, current, versions);
    if (step) steps.push(next?.executable && step.content !== undefined ? { ...step, executable: true } : step);
  }
  // A rewritten file kept as the user's keeps its test (`x.ts` → `x.test.ts`) beside it: the new one tests the new code.
  const kept = new Set(steps.filter((step) => step.action === 'SKIP' && step.note === rewritten(step.path)).map((step) => step.path.replace(/\.ts$/, '.test.ts')));
  return steps.flatMap((step) => {
    if (!kept.has(step.path) || !rewritten(step.path) || step.action === 'SKIP') return [step];
    return onDisk.get(step.path) === undefined ? [] : [{ path: step.path, action: 'SKIP' as const, note: 'its code stays yours, so its test does too' }];
  });
}

function decide(
  path: string,
  old: string | undefined,
  next: string | undefined,
  current: string | undefined,
  versions: { from: string; to: string },
): UpgradeStep | undefined {
  if (next === undefined) {
    if (current === undefined) return undefined;
    if (current === old) return { path, action: 'DELETE' };
    return { path, action: 'SKIP', note: 'the new scaffold no longer has it, and you changed it: it stays yours' };
  }
  if (current === next || old === next) return undefined;
  if (current === undefined) {
    return old === undefined ? { path, action: 'CREATE', content: next } : { path, action: 'SKIP', note: 'you deleted it; opgen leaves it deleted' };
  }
  if (current === old) return { path, action: 'UPDATE', content: next };
  // A file both the user and the new scaffold added: its common part is all there is to merge from.
  const merged = merge3(current, old ?? '', next, { ours: 'yours', base: `opgen ${versions.from}`, theirs: `opgen ${versions.to}` });
  // The user made the scaffold's change already: nothing to write.
  if (!merged.conflicts && merged.text === current) return undefined;
  return { path, action: merged.conflicts ? 'CONFLICT' : 'MERGE', content: merged.text };
}
