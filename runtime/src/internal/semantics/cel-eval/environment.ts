/**
 * The CEL environments rules are evaluated in: cel-js with Kubernetes' libraries and cel-go's
 * meaning of the built-ins where cel-js' differs (overrides.ts), `self`
 * and `oldSelf` declared `dyn` (the values carry their types), and for rules with
 * `optionalOldSelf` an `oldSelf` of `optional<dyn>`. Compiled expressions are cached per
 * process: the same CRDs are installed in every test.
 *
 * @module
 */
import { Environment, type ParseResult } from '@marcbachmann/cel-js';
import { rewriteHas } from './has-macro.js';
import { registerKubernetesLibrary } from './library.js';
import { replaceBuiltins } from './overrides.js';

let environments: { plain: Environment; optional: Environment } | undefined;

function environment(optionalOldSelf: boolean): Environment {
  if (!environments) {
    const base = new Environment({ enableOptionalTypes: true, unlistedVariablesAreDyn: false });
    registerKubernetesLibrary(base);
    const plain = base.clone().registerVariable('self', 'dyn').registerVariable('oldSelf', 'dyn');
    // cel-js mistypes `oldSelf.value() == self` when oldSelf is a plain dyn; declared optional it does not.
    const optional = base.clone().registerVariable('self', 'dyn').registerVariable('oldSelf', 'optional<dyn>');
    // Each clone resolves calls against overload lists of its own.
    replaceBuiltins(plain);
    replaceBuiltins(optional);
    environments = { plain, optional };
  }
  return optionalOldSelf ? environments.optional : environments.plain;
}

const compiled = new Map<string, ParseResult | Error>();

/**
 * The compiled expression, or the parse error (kept, so a broken rule is not parsed again).
 *
 * @example
 * const program = compile('self.size() < 3', false);
 */
export function compile(expression: string, optionalOldSelf: boolean): ParseResult | Error {
  const key = `${optionalOldSelf ? 'o' : 'p'}${expression}`;
  let found = compiled.get(key);
  if (!found) {
    try {
      found = environment(optionalOldSelf).parse(rewriteHas(expression));
    } catch (error) {
      found = error instanceof Error ? error : new Error(String(error));
    }
    compiled.set(key, found);
  }
  return found;
}

/** cel-go's wording for the evaluation errors cel-js words differently. */
export function celGoMessage(error: unknown): string {
  const text = (error instanceof Error ? error.message : String(error)).split('\n')[0]!;
  return text.replace(/^No such key: /, 'no such key: ');
}
