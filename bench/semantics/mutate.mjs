// Seeded mutations of a valid object, of the kinds that reach the API server's checks: bad
// strings (patterns, formats, lengths), wrong JSON types, out-of-range numbers, duplicated list
// entries (list-map keys, CEL uniqueness rules), dropped fields (required, CEL presence rules),
// nulls and unknown fields (pruning).

/** A small seeded generator (mulberry32): the same seed gives the same objects. */
export function rng(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const pick = (random, xs) => xs[Math.floor(random() * xs.length)];

/** Every [parent, key] under `spec`, depth first. */
function slots(value, out = []) {
  for (const key of Object.keys(value)) {
    out.push([value, key]);
    if (value[key] && typeof value[key] === 'object') slots(value[key], out);
  }
  return out;
}

/** A copy of `object` with one seeded mutation in its spec. */
export function mutate(object, random) {
  const copy = structuredClone(object);
  if (!copy.spec || typeof copy.spec !== 'object') copy.spec = {};
  const all = slots(copy.spec);
  const strings = all.filter(([p, k]) => typeof p[k] === 'string');
  const numbers = all.filter(([p, k]) => typeof p[k] === 'number');
  const arrays = all.filter(([p, k]) => Array.isArray(p[k]) && p[k].length > 0);
  const keyed = all.filter(([p]) => !Array.isArray(p));
  const kinds = [
    strings.length && (() => { const [p, k] = pick(random, strings); p[k] = pick(random, ['Not Valid!!', 'a'.repeat(300), '', '/ok/../x', 'UPPER.case']); }),
    numbers.length && (() => { const [p, k] = pick(random, numbers); p[k] = pick(random, [-1, 70000, 2 ** 40, String(p[k]), 1.5]); }),
    arrays.length && (() => { const [p, k] = pick(random, arrays); p[k].push(structuredClone(p[k][0])); }),
    keyed.length && (() => { const [p, k] = pick(random, keyed); delete p[k]; }),
    keyed.length && (() => { const [p, k] = pick(random, keyed); p[k] = null; }),
    () => { copy.spec.notInTheSchema = { x: 1 }; },
  ].filter(Boolean);
  pick(random, kinds)();
  return copy;
}
