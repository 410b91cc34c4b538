import type { Answer } from './answer.js';
import type { FuzzCase } from './cases.js';

/**
 * A class of fuzz cases where the memory cluster still answers otherwise than the API
 * server, named and explained, and counted apart in the agreement table (never as
 * agreement). `scenario`, when given, is the differential suite's scenario that shows it
 * (listed in differential/gaps.ts); a class without one is not yet reduced to a scenario.
 * `matches` must match that class's cases only: most require the answers to be equal once
 * that one difference is taken out on both sides.
 */
export interface KnownFuzzDifference {
  id: string;
  /** What differs, in a line. */
  note: string;
  scenario?: string;
  matches(fuzz: FuzzCase, real: Answer, memory: Answer): boolean;
}

const text = (answer: Answer): string => JSON.stringify(answer);

/** The answers with `rewrite` applied to the message and to each cause (then sorted). */
function rewritten(answer: Answer, rewrite: (line: string) => string): string {
  const causes = answer.causes?.map(rewrite).sort();
  return text({ ...answer, ...(answer.message !== undefined && { message: rewrite(answer.message) }), ...(causes && { causes }) });
}

/** The answers are equal once `pattern` is replaced on both sides. */
function equalBut(pattern: RegExp, replacement: string): (fuzz: FuzzCase, real: Answer, memory: Answer) => boolean {
  const rewrite = (line: string): string => line.replace(pattern, replacement);
  return (_fuzz, real, memory) => rewritten(real, rewrite) === rewritten(memory, rewrite);
}

/** Both succeeded and the stored objects are equal once `strip` took the difference out of each. */
function storedEqualBut(strip: (object: Record<string, unknown>) => void): (fuzz: FuzzCase, real: Answer, memory: Answer) => boolean {
  return (_fuzz, real, memory) => {
    if (real.code !== '2xx' || memory.code !== '2xx') return false;
    const [a, b] = [structuredClone(real.object), structuredClone(memory.object)] as Array<Record<string, unknown>>;
    strip(a!);
    strip(b!);
    return JSON.stringify(sortKeys(a)) === JSON.stringify(sortKeys(b));
  };
}

function sortKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortKeys);
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(Object.keys(value).sort().map((key) => [key, sortKeys((value as Record<string, unknown>)[key])]));
}

const managedFields = (object: Record<string, unknown>): Array<Record<string, unknown>> =>
  ((object.metadata as { managedFields?: Array<Record<string, unknown>> } | undefined)?.managedFields ?? []);

/** Real's causes, less those `drop` selects, equal memory's. */
function realLess(drop: (cause: string) => boolean): (fuzz: FuzzCase, real: Answer, memory: Answer) => boolean {
  return (_fuzz, real, memory) => {
    const kept = (real.causes ?? []).filter((cause) => !drop(cause));
    if (kept.length === (real.causes ?? []).length || real.code !== 422) return false;
    if (kept.length === 0) return memory.code === '2xx' || memory.code === 422;
    return memory.code === 422 && JSON.stringify(kept) === JSON.stringify([...(memory.causes ?? [])].sort());
  };
}

const SOME_RULES_NOT_CHECKED = /some validation rules were not checked/;

export const KNOWN_FUZZ_DIFFERENCES: KnownFuzzDifference[] = [
  {
    id: 'cel-logical-error-side',
    note: "a CEL || or && whose sides both fail: cel-js reports the right side's error, cel-go the left's",
    scenario: 'a CEL || whose sides both fail reports the left error',
    matches: equalBut(/no such key: \S+ evaluating rule/g, 'no such key: <key> evaluating rule'),
  },
  {
    id: 'cel-int-conversion-text',
    note: 'int() of a string that is no number: cel-js and cel-go word the error otherwise',
    scenario: 'int() of a string that is no number names the conversion',
    matches: equalBut(/type conversion error from '\w+' to '\w+'|int\(\) type error: cannot convert to int/g, '<conversion error>'),
  },
  {
    id: 'embedded-metadata',
    note: "an embedded resource's metadata is not validated as ObjectMeta (name, labels)",
    scenario: 'an embedded resource with a bad label key is refused',
    matches: (fuzz, real, memory) => fuzz.area === 'embedded' && realLess((cause) => /\.metadata\.(labels|annotations|name|generateName)/.test(cause) || SOME_RULES_NOT_CHECKED.test(cause))(fuzz, real, memory),
  },
  {
    id: 'embedded-apiversion-not-string',
    note: "an embedded resource whose apiVersion is a number: the API server answers 400 (update) or one error, the memory cluster 500 or more",
    matches: (fuzz, real, memory) => fuzz.area === 'embedded' && fuzz.what === 'embedded mutation 5' && real.code !== '2xx' && memory.code !== '2xx',
  },
  {
    id: 'null-items-and-int-or-string',
    note: 'a null list item, or a null int-or-string value in an apply: the memory cluster adds the item type\'s or the union\'s errors to the type error',
    matches: (fuzz, real, memory) => / null$|given null$/.test(fuzz.what) && real.code === 422 && memory.code === 422 && (real.causes ?? []).every((cause) => (memory.causes ?? []).includes(cause)),
  },
  {
    id: 'apply-time-of-unchanged-entry',
    note: "an apply's managedFields entry: the API server leaves its time out in cases not yet pinned down, the memory cluster stamps it",
    matches: storedEqualBut((object) => {
      for (const entry of managedFields(object)) delete entry.time;
    }),
  },
  {
    id: 'apply-generation-through-other-version',
    note: 'an apply through a served version whose schema defaults a field the storage version lacks bumps the generation on the memory cluster only',
    matches: storedEqualBut((object) => delete (object.metadata as Record<string, unknown>).generation),
  },
  {
    id: 'managed-fields-of-map-entries',
    note: 'managedFields of a create or update: the entries of a preserve-unknown-fields map, or of a volume snapshot source, are tracked otherwise',
    matches: storedEqualBut((object) => delete (object.metadata as Record<string, unknown>).managedFields),
  },
  {
    id: 'typed-patch-several-errors',
    note: "an applied configuration with several type errors: the memory cluster checks a status it has already taken out (resetFields) and prints map keys in a list's path otherwise",
    matches: (_fuzz, real, memory) => real.code === 500 && memory.code === 500 && /failed to create typed patch object/.test(real.message ?? '') && /failed to create typed patch object/.test(memory.message ?? ''),
  },
  {
    id: 'volume-snapshot-apply',
    note: "an apply to a VolumeSnapshot or VolumeGroupSnapshot: the memory cluster evaluates the source's transition rules where the API server does not (or answers 500)",
    matches: (fuzz) => fuzz.operation === 'apply' && /^volume(group)?snapshots\./.test(fuzz.target.id),
  },
  {
    id: 'scale-accessor-of-non-object-spec',
    note: "a spec that is no object on a kind with a scale subresource: the API server adds the replicas path's accessor error",
    matches: realLess((cause) => /accessor error/.test(cause)),
  },
  {
    id: 'null-label-selector-merge-patch',
    note: 'a merge patch setting a list item\'s labelSelector to null: the answers differ in a way the comparison has not yet been narrowed to',
    matches: (fuzz) => fuzz.operation === 'merge patch' && fuzz.what === 'type object given null' && /labelSelector$/.test(fuzz.site),
  },
];
