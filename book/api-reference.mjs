// Builds the book's API reference (book/api/, not committed) with TypeDoc from the JSDoc of
// every public subpath export of @opgen/runtime: the package's `exports` map is the one list
// of what is public, so a new subpath appears here without an edit. A public function, class,
// interface, type or constant without JSDoc fails the build, as does a {@link} to nothing.
import { readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Application, ReflectionKind } from 'typedoc';

const book = fileURLToPath(new URL('.', import.meta.url));
const runtime = fileURLToPath(new URL('../runtime/', import.meta.url));
const { exports } = JSON.parse(readFileSync(`${runtime}package.json`, 'utf8'));

// Internal subpaths are shared with the opgen CLI, not offered to operators. `./api` is the
// Kubernetes types generated from the API server's OpenAPI: Kubernetes' own API reference
// documents them (the index page links it), and as a page they would weigh half a megabyte.
const subpaths = Object.keys(exports).filter((subpath) => !subpath.startsWith('./internal/') && subpath !== './api');
const entryPoints = subpaths.map((subpath) => `${runtime}src/${subpath === '.' ? '' : `${subpath.slice(2)}/`}index.ts`);

const out = `${book}api`;
rmSync(out, { recursive: true, force: true });
const app = await Application.bootstrapWithPlugins({
  entryPoints,
  tsconfig: `${runtime}tsconfig.json`,
  // The VitePress theme makes anchors as VitePress slugs headings, so in-page links resolve.
  plugin: ['typedoc-plugin-markdown', 'typedoc-vitepress-theme'],
  out,
  name: '@opgen/runtime',
  readme: `${book}api-reference.md`,
  entryFileName: 'index.md',
  outputFileStrategy: 'modules',
  excludePrivate: true,
  excludeInternal: true,
  hidePageHeader: true,
  hideBreadcrumbs: true,
  disableSources: true,
  // Comments quoting Kubernetes (`<namespace>/<name>`, `{{ }}`) would be read as Vue markup.
  sanitizeComments: true,
  validation: { notExported: false, notDocumented: true, invalidLink: true },
  requiredToBeDocumented: ['Function', 'Class', 'Interface', 'TypeAlias', 'Variable', 'Enum'],
  treatValidationWarningsAsErrors: true,
  logLevel: 'Warn',
});
const project = await app.convert();
if (!project) process.exit(1);
app.validate(project);
if (app.logger.hasErrors() || app.logger.hasWarnings()) process.exit(1);
await app.generateOutputs(project);
if (app.logger.hasErrors()) process.exit(1);
repairAnchors(out);
console.log(`API reference: ${subpaths.length} subpaths, ${project.getReflectionsByKind(ReflectionKind.SomeExport).length} exports in ${out}`);

/**
 * A name exported twice (a type and its re-export elsewhere) gets the anchor `name-1` from the
 * theme, while VitePress numbers only repeated headings of one page: such a link is pointed at
 * the heading the page has. What is still broken after that fails the book's link check.
 */
function repairAnchors(dir) {
  const files = readdirSync(dir, { recursive: true }).filter((f) => f.endsWith('.md'));
  const slug = (heading) => heading.replace(/\\/g, '').toLowerCase().replace(/[\s~`!@#$%^&*()\-_+=[\]{}|\\;:"'<>,.?/]+/g, '-').replace(/^-+|-+$/g, '');
  const anchors = new Map(files.map((f) => [f, new Set([...readFileSync(join(dir, f), 'utf8').matchAll(/^#+ (.*)$/gm)].map((m) => slug(m[1])))]));
  for (const file of files) {
    const text = readFileSync(join(dir, file), 'utf8');
    const fixed = text.replace(/\]\(([^)#\s]*)#([a-z0-9-]+)-(\d+)\)/g, (link, target, base, n) => {
      const page = target ? join(file, '..', target) : file;
      const have = anchors.get(page);
      return have && !have.has(`${base}-${n}`) && have.has(base) ? `](${target}#${base})` : link;
    });
    if (fixed !== text) writeFileSync(join(dir, file), fixed);
  }
}
