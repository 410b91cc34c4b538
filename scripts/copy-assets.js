// tsc compiles code only: the handlebars templates and JSON data ship beside it.
import { cpSync, existsSync } from 'node:fs';

for (const dir of ['templates', 'data']) {
  if (existsSync(`src/${dir}`)) cpSync(`src/${dir}`, `dist/${dir}`, { recursive: true });
}
