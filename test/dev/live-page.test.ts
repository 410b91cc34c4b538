import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { eventually } from '@opgen/runtime/testing';
import type { Browser } from 'playwright-core';
import { afterAll, describe, expect, it } from 'vitest';
import { launchChromium, watchPageProblems } from '../chromium.js';
import { opgen } from '../scaffold/run.js';
import { packedProject } from '../scaffold/packed-project.js';
import { devRun, holds } from './dev-run.js';

// `opgen dev`'s reconcile lines and live page as a user meets them: a freshly scaffolded
// project with the packed packages installed, its own opgen run as a process, the page
// opened in headless Chromium, and Widgets written with real kubectl against the served
// memory cluster. Needs `npm run build` first (the packages are packed from dist/).

const project = packedProject('dev-page-operator');
const run = devRun(project);
const { kubectl } = run;
let browser: Browser | undefined;

afterAll(async () => {
  await browser?.close();
});

/** The line opgen dev printed for a reconcile of the sample caused by `trigger`, once it did. */
const reconcileLine = (trigger: string) => new RegExp(`^dev Widget default/widget-sample  ← [^\\n]*?${trigger}[^\\n]*?  \\d+(\\.\\d+)? m?s  done  \\(\\d+ API calls?\\)$`, 'm');

describe('opgen dev', () => {
  it(
    'prints one line per reconcile and shows each, with its API calls, the object tree and Events, on its live page',
    async () => {
      await project.init('example.com');
      const create = await opgen(project.dir, 'create', 'api', '--group', 'demo', '--version', 'v1', '--kind', 'Widget');
      expect(create.stderr).toBe('');
      // The operator records an Event about the Widget on each reconcile, as operators do.
      const controller = join(project.dir, 'src/controllers/widget_controller.ts');
      const applied = 'await ctx.apply(kinds.ConfigMap, { metadata: { name }, data: { foo } });';
      expect(readFileSync(controller, 'utf8')).toContain(applied);
      writeFileSync(controller, readFileSync(controller, 'utf8').replace(applied, `${applied}\n      ctx.recorder.event(widget, 'Normal', 'StarterApplied', \`ConfigMap \${name} holds "\${foo}"\`);`));

      run.start();
      await eventually(() => holds(/operator started/.test(run.output), `no operator yet:\n${run.output}`), { timeoutMs: 120_000, intervalMs: 200 });
      const url = /^dev live page (http:\/\/127\.0\.0\.1:\d+\/)$/m.exec(run.output)?.[1];
      expect(url, run.output).toBeDefined();

      browser = await launchChromium();
      const page = await browser.newPage();
      const problems = watchPageProblems(page);
      await page.goto(url!);
      await page.locator('#status', { hasText: 'live' }).waitFor({ timeout: 10_000 });

      // A new Widget: its reconcile is a line in the terminal and an entry on the open page.
      await kubectl('apply', '-k', 'config/samples/');
      await eventually(() => holds(reconcileLine('create Widget default/widget-sample').test(run.output), `no reconcile line yet:\n${run.output}`), { timeoutMs: 60_000, intervalMs: 200 });
      const created = page.locator('.reconcile[data-object="Widget default/widget-sample"]', { hasText: 'create Widget default/widget-sample' });
      await created.first().waitFor({ timeout: 10_000 });
      // The operator's own JSON log lines stay out of the terminal (--logs shows them).
      expect(run.output).not.toMatch(/^\{"level"/m);

      // Clicking it shows the API calls its client made: the starter ConfigMap written, with status codes.
      await created.first().locator('button').click();
      const calls = created.first().locator('table.calls tbody tr');
      await calls.first().waitFor({ timeout: 10_000 });
      const rows = (await calls.allInnerTexts()).map((row) => row.split('\t').map((cell) => cell.trim()));
      expect(rows).toContainEqual(['create', 'ConfigMap', 'default/widget-sample-starter', '201', expect.stringMatching(/^\d+ ms$/)]);
      expect(rows).toContainEqual(['apply', 'Widget', 'default/widget-sample (status)', '200', expect.stringMatching(/^\d+ ms$/)]);
      // And the Widget before and after: the reconcile set its Ready condition.
      await created.first().locator('pre.diff', { hasText: 'Ready' }).waitFor({ timeout: 10_000 });

      // The object tree: the Widget, its condition, and the ConfigMap it owns.
      const widgetNode = page.locator('#objects li', { has: page.locator('.node[data-object="Widget default/widget-sample"]') });
      await widgetNode.locator('.node[data-object="ConfigMap default/widget-sample-starter"]').waitFor({ timeout: 10_000 });
      await widgetNode.locator('.conditions', { hasText: 'Ready=True' }).first().waitFor({ timeout: 10_000 });

      // Clicking the Widget shows the Events about it: the one its reconcile recorded, with its time.
      await page.locator('.node[data-object="Widget default/widget-sample"] > button').click();
      const events = page.locator('#events table.events tbody tr');
      await events.first().waitFor({ timeout: 10_000 });
      const [firstEvent] = (await events.allInnerTexts()).map((row) => row.split('\t').map((cell) => cell.trim()));
      expect(firstEvent).toEqual([expect.stringMatching(/\d/), 'Normal', 'StarterApplied', 'ConfigMap widget-sample-starter holds ""']);

      // A change to the Widget: one more reconcile, caused by the update.
      await kubectl('patch', 'widget', 'widget-sample', '--type', 'merge', '-p', '{"spec":{"foo":"bar"}}');
      await page.locator('.reconcile[data-object="Widget default/widget-sample"]', { hasText: 'update Widget default/widget-sample' }).first().waitFor({ timeout: 30_000 });
      expect(run.output).toMatch(reconcileLine('update Widget default/widget-sample'));
      // Its Event comes after the first one, while the Widget stays selected.
      await page.locator('#events tbody tr').nth(1).filter({ hasText: 'ConfigMap widget-sample-starter holds "bar"' }).waitFor({ timeout: 30_000 });

      // The filter hides the reconciles of other objects.
      await page.fill('#filter', 'no-such-object');
      expect(await page.locator('.reconcile:visible').count()).toBe(0);
      await page.fill('#filter', 'widget-sample');
      expect(await page.locator('.reconcile:visible').count()).toBeGreaterThanOrEqual(2);

      expect(problems).toEqual([]);
      run.process.kill('SIGTERM');
      expect((await run.process).exitCode, run.output).toBe(0);
    },
    600_000,
  );
});
