import { existsSync } from 'node:fs';
import { chromium, type Browser, type Page } from 'playwright-core';

/** Debian's `chromium` package; `CHROMIUM` names another. */
const executablePath = process.env.CHROMIUM ?? '/usr/bin/chromium';

/** Headless Chromium, as the book's site check and opgen dev's page test load pages in. */
export async function launchChromium(): Promise<Browser> {
  if (!existsSync(executablePath)) throw new Error(`no Chromium at ${executablePath}: apt-get install -y chromium, or set CHROMIUM`);
  return chromium.launch({ executablePath });
}

/** Collects what goes wrong on `page` from now on: console errors, uncaught exceptions, failed requests and HTTP errors, one line each. */
export function watchPageProblems(page: Page): string[] {
  const problems: string[] = [];
  page.on('console', (msg) => {
    if (msg.type() === 'error') problems.push(`console error: ${msg.text()}`);
  });
  page.on('pageerror', (err) => problems.push(`uncaught: ${err.message}`));
  page.on('requestfailed', (req) => problems.push(`request failed: ${req.url()} ${req.failure()?.errorText ?? ''}`));
  page.on('response', (res) => {
    if (res.status() >= 400) problems.push(`HTTP ${res.status()}: ${res.url()}`);
  });
  return problems;
}
