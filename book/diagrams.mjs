// Renders the book's diagrams (book/diagrams/*.mmd, Mermaid text) to SVG files under
// book/public/diagrams/ (not committed), which the chapters show as images: the reader's
// browser gets a static SVG, no script, and the text source is what gets reviewed.
// Mermaid lays text out with a browser's fonts, so it runs in headless Chromium, the one the
// book's browser check uses (Debian's `chromium`, or the one CHROMIUM names).
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';

const book = fileURLToPath(new URL('.', import.meta.url));
const sources = join(book, 'diagrams');
const out = join(book, 'public', 'diagrams');
const executablePath = process.env.CHROMIUM ?? '/usr/bin/chromium';
if (!existsSync(executablePath)) {
  console.error(`diagrams: no Chromium at ${executablePath}: apt-get install -y chromium, or set CHROMIUM`);
  process.exit(1);
}
const mermaid = createRequire(import.meta.url).resolve('mermaid/dist/mermaid.min.js');

rmSync(out, { recursive: true, force: true });
mkdirSync(out, { recursive: true });
const browser = await chromium.launch({ executablePath });
try {
  await render();
} catch (error) {
  console.error(`diagrams: ${error.message}`);
  process.exitCode = 1;
} finally {
  await browser.close();
}

async function render() {
  const page = await browser.newPage();
  await page.addScriptTag({ path: mermaid });
  for (const file of readdirSync(sources).filter((f) => f.endsWith('.mmd')).sort()) {
    const name = file.slice(0, -'.mmd'.length);
    const text = readFileSync(join(sources, file), 'utf8');
    // Fixed ids make the same source give the same SVG on every build.
    const svg = await page.evaluate(
      async ([id, source]) => {
        globalThis.mermaid.initialize({ startOnLoad: false, theme: 'neutral', deterministicIds: true, deterministicIDSeed: id, htmlLabels: false, flowchart: { htmlLabels: false } });
        return (await globalThis.mermaid.render(id, source)).svg;
      },
      [name, text],
    ).catch((error) => {
      // Mermaid's parse errors span lines (the line, a caret, what it expected): keep one.
      const lines = error.message.replace(/^page\.evaluate: (Error: )?/, '').split('\n').filter((line) => !/^\s+at /.test(line));
      throw new Error(`book/diagrams/${file}: ${[lines[0], lines.at(-1)].join(' ')}`);
    });
    writeFileSync(join(out, `${name}.svg`), svg);
  }
}
