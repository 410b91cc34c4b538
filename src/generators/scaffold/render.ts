import { readFileSync } from 'node:fs';
import Handlebars from 'handlebars';

/**
 * A scaffold's template set: renders the template `name` (e.g. `init/Dockerfile`) with
 * `data`. Generators take one as a parameter so that `opgen upgrade` can render the same
 * project with the templates of another scaffold version.
 */
export type Templates = (name: string, data: object) => string;

// Beside this module in src/ and, after the build copies them, in dist/.
const packagedDir = new URL('../../templates/scaffold/', import.meta.url);
const handlebars = Handlebars.create();

/**
 * The templates of `.hbs` files under `dir`, with `overrides` (template name → Handlebars
 * source) taking the place of files. Compiled with `noEscape` (HTML escaping would corrupt
 * code) and `strict`, so a template naming a value the generator did not pass fails loudly
 * instead of printing nothing.
 */
export function templateSet(dir: URL, overrides: Readonly<Record<string, string>> = {}): Templates {
  const compiled = new Map<string, HandlebarsTemplateDelegate>();
  return (name, data) => {
    let template = compiled.get(name);
    if (!template) {
      const source = overrides[name] ?? readFileSync(new URL(`${name}.hbs`, dir), 'utf8');
      template = handlebars.compile(source, { noEscape: true, strict: true });
      compiled.set(name, template);
    }
    return template(data);
  };
}

/** The templates this opgen ships: `src/templates/scaffold/<name>.hbs`. */
export const packagedTemplates: Templates = templateSet(packagedDir);

/**
 * The templates this opgen ships with some replaced (name → Handlebars source): a scaffold
 * version that differs from the packaged one in those files.
 */
export function packagedTemplatesWith(overrides: Readonly<Record<string, string>>): Templates {
  return templateSet(packagedDir, overrides);
}

/** Renders `src/templates/scaffold/<name>.hbs` of the packaged set. */
export function render(name: string, data: object): string {
  return packagedTemplates(name, data);
}
