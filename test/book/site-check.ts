// What the site test checks in a built VitePress site: internal links and anchors (read from the
// HTML), and what a browser reports while loading each page. Plain functions, so the test can
// prove each check catches what it is for.
import { createServer, type Server } from 'node:http';
import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { extname, join, relative } from 'node:path';
import type { AddressInfo } from 'node:net';
import type { Browser } from 'playwright-core';
import { watchPageProblems } from '../chromium.js';

/** Every .html file under `dir`, as paths relative to it. */
export function htmlPages(dir: string): string[] {
  return readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .filter((f) => f.endsWith('.html') && statSync(join(dir, f)).isFile())
    .sort();
}

const ids = (html: string) => new Set([...html.matchAll(/\sid="([^"]+)"/g)].map((m) => m[1]));

/**
 * Internal links (`href`/`src` starting with `/`, `./`, `#` or a bare path) that name no file
 * of the site, or an anchor the target page lacks: `page: link` per problem.
 */
export function brokenLinks(dir: string): string[] {
  const problems: string[] = [];
  for (const page of htmlPages(dir)) {
    const html = readFileSync(join(dir, page), 'utf8');
    for (const [, link] of html.matchAll(/\s(?:href|src)="([^"]*)"/g)) {
      if (!link || /^[a-z][a-z0-9+.-]*:/i.test(link) || link.startsWith('//')) continue; // external: not ours to check
      const [pathPart, hash] = link.split('#', 2) as [string, string | undefined];
      const path = pathPart.split('?')[0] ?? '';
      const target = path === '' ? page : path.startsWith('/') ? path.slice(1) : join(page, '..', path);
      const file = [target, `${target}.html`, join(target, 'index.html')].find((f) => existsSync(join(dir, f)) && statSync(join(dir, f)).isFile());
      if (!file) {
        problems.push(`${page}: ${link}`);
        continue;
      }
      if (hash && file.endsWith('.html') && !ids(readFileSync(join(dir, file), 'utf8')).has(decodeURIComponent(hash))) problems.push(`${page}: ${link} (no such anchor)`);
    }
  }
  return problems;
}

const types: Record<string, string> = { '.html': 'text/html', '.js': 'text/javascript', '.css': 'text/css', '.json': 'application/json', '.woff2': 'font/woff2', '.svg': 'image/svg+xml' };

/** Serves `dir` on a loopback port, as a static host would (404 for what is not there). */
export async function serveSite(dir: string): Promise<{ url: string; close: () => Promise<void> }> {
  const server: Server = createServer((req, res) => {
    const path = decodeURIComponent(new URL(req.url ?? '/', 'http://x').pathname);
    const candidates = [path, `${path}.html`, join(path, 'index.html')].map((p) => join(dir, p));
    const file = candidates.find((f) => !relative(dir, f).startsWith('..') && existsSync(f) && statSync(f).isFile());
    if (!file) {
      res.writeHead(404).end('not found');
      return;
    }
    res.writeHead(200, { 'content-type': types[extname(file)] ?? 'application/octet-stream' }).end(readFileSync(file));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}`, close: () => new Promise((resolve) => server.close(() => resolve())) };
}

/**
 * Loads `url` in a fresh page 1280 px wide: console errors, uncaught exceptions, failed
 * requests, HTTP errors, code blocks a reader must scroll sideways and images that show
 * nothing, one line each.
 */
export async function pageProblems(browser: Browser, url: string): Promise<string[]> {
  const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  const problems = watchPageProblems(page);
  try {
    await page.goto(url, { waitUntil: 'networkidle' });
    // Evaluated in the page: only the browser knows where a line of a code block ends.
    const wide = await page.$$eval('div[class*="language-"] pre', (blocks) =>
      blocks.filter((pre) => pre.scrollWidth > pre.clientWidth).map((pre) => (pre.textContent ?? '').split('\n')[0]!.slice(0, 60)),
    );
    for (const first of wide) problems.push(`code block scrolls sideways: ${first}`);
    // A diagram whose SVG is served but does not parse loads with 200 and shows nothing.
    const blank = await page.$$eval('img', (images) => images.filter((img) => img.complete && img.naturalWidth === 0).map((img) => img.getAttribute('src') ?? ''));
    for (const src of blank) problems.push(`image shows nothing: ${src}`);
  } finally {
    await page.close();
  }
  return problems;
}
