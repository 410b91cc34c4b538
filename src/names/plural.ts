import { dictionary, suffixRules } from './plural-rules.js';

/** A suffix rule: a word ending in `suffix` becomes `stem + replacement`; `null` keeps it. */
interface Rule {
  suffix: string;
  replacement: string | null;
}

const singularToPlural = new Map<string, string>();
const pluralToSingular = new Map<string, string>();
const rules: Rule[] = [];

for (const [singular, plural, flags = {}] of dictionary) {
  singularToPlural.set(singular, plural);
  if (!flags.unidirectional) {
    pluralToSingular.set(plural, singular);
    if (flags.alternative) pluralToSingular.set(flags.alternative, singular);
  }
}
// Compound words ("superman", "wolfhound"): the dictionary's words as suffixes, the last
// entry first, then the general suffix rules. Each rule is preceded by its plural form so
// that a word already in the plural is left as it is.
for (const [singular, plural, flags = {}] of [...dictionary].reverse()) {
  if (flags.exact) continue;
  rules.push({ suffix: plural, replacement: null }, { suffix: singular, replacement: plural });
}
for (const [singular, plural] of suffixRules) {
  rules.push({ suffix: plural, replacement: null }, { suffix: singular, replacement: plural });
}

/**
 * The resource plural of a kind, as kubebuilder and controller-gen compute it: the kind in
 * lower case, pluralized with gobuffalo/flect's English rules (`Policy` → `policies`,
 * `Ingress` → `ingresses`, `Person` → `people`, `Echo` → `echoes`; a word that already
 * ends in `s` and matches no rule, such as `Endpoints` or `Redis`, is kept).
 */
export function pluralOf(kind: string): string {
  const word = kind.toLowerCase();
  if (word === '') return '';
  const known = singularToPlural.get(word);
  if (known !== undefined) return known;
  if (pluralToSingular.has(word)) return word;
  for (const { suffix, replacement } of rules) {
    if (!word.endsWith(suffix)) continue;
    return replacement === null ? word : word.slice(0, word.length - suffix.length) + replacement;
  }
  return word.endsWith('s') ? word : `${word}s`;
}
