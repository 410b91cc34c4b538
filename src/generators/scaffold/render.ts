import { readFileSync } from 'node:fs';
import Handlebars from 'handlebars';

// Beside this module in src/ and, after the build copies them, in dist/.
const templatesDir = new URL('../../templates/scaffold/', import.meta.url);
const handlebars = Handlebars.create();
const compiled = new Map<string, HandlebarsTemplateDelegate>();

/**
 * Renders `src/templates/scaffold/<name>.hbs`. Compiled with `noEscape` (HTML escaping
 * would corrupt code) and `strict`, so a template naming a value the generator did not
 * pass fails loudly instead of printing nothing.
 */
export function render(name: string, data: object): string {
  let template = compiled.get(name);
  if (!template) {
    const source = readFileSync(new URL(`${name}.hbs`, templatesDir), 'utf8');
    template = handlebars.compile(source, { noEscape: true, strict: true });
    compiled.set(name, template);
  }
  return template(data);
}
