import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

/**
 * Each seed example must be exactly what opgen generates from the commands in its README,
 * plus the files a user writes by hand: types, controllers, samples, tests and the README.
 * static-site is made from ../charts/static-site, the chart it is backed by.
 */
const repo = fileURLToPath(new URL('../../', import.meta.url));
const seeds = ['bookstore', 'cronjob', 'demo-volume', 'echo', 'ovh-nginx', 'podset', 'static-site'];

describe('seed examples', () => {
  it('are all present', () => {
    const examples = join(repo, 'examples');
    const present = readdirSync(examples).filter((name) => existsSync(join(examples, name, 'README.md')));
    expect(present.sort()).toEqual(seeds);
  });

  it.each(seeds)('%s is its README commands plus its hand-written files', (name) => {
    const run = spawnSync('node', [join(repo, 'scripts/regenerate-examples.mjs'), '--check', name], { encoding: 'utf8' });
    expect(run.stderr).toBe('');
    expect(run.stdout.trim()).toBe(`${name}: up to date`);
    expect(run.status).toBe(0);
  });
});
