// tsc compiles code only: the handlebars templates and JSON data ship beside it.
// A file already up to date is left alone: `npm publish` rebuilds while tests may read dist/.
// One src/ no longer has is removed, so that a package published from a working tree holds
// no asset of an earlier build.
import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';

function copyChanged(from, to) {
  mkdirSync(to, { recursive: true });
  for (const name of readdirSync(to)) if (!existsSync(join(from, name))) rmSync(join(to, name), { recursive: true });
  for (const entry of readdirSync(from, { withFileTypes: true })) {
    const source = join(from, entry.name);
    const target = join(to, entry.name);
    if (entry.isDirectory()) copyChanged(source, target);
    else if (!existsSync(target) || !readFileSync(source).equals(readFileSync(target))) copyFileSync(source, target);
  }
}

for (const dir of ['templates', 'data']) {
  if (existsSync(`src/${dir}`)) copyChanged(`src/${dir}`, `dist/${dir}`);
}
