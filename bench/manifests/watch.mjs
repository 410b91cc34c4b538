// The --watch scenario of bench/manifests: one kind file saved `saves` times under a running
// `opgen manifests --watch`; each save adds a field, so each regenerates that kind's CRD.
import { spawn } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * Median milliseconds from a save to opgen's report of it (what a user waits for, file
 * watching included) and the median time opgen itself reports for the regeneration.
 */
export async function watchSaves({ bin, tsDir, file, kind, saves, env }) {
  const child = spawn('node', [bin, 'manifests', '--watch'], { cwd: tsDir, env: { ...env, NO_COLOR: '1' }, stdio: ['ignore', 'pipe', 'inherit'] });
  let output = '';
  let notify;
  child.stdout.on('data', (chunk) => {
    output += chunk;
    notify?.();
  });
  const next = (pattern) =>
    new Promise((done) => {
      notify = () => {
        const match = pattern.exec(output);
        if (match) {
          output = output.slice(match.index + match[0].length);
          notify = undefined;
          done(match);
        }
      };
      notify();
    });
  await next(/watching src\/ for changes/);
  const path = join(tsDir, file);
  const original = readFileSync(path, 'utf8');
  const wall = [];
  const reported = [];
  for (let i = 0; i < saves; i++) {
    const text = original.replace(`export interface ${kind}Spec {`, `export interface ${kind}Spec {\n  /** Added by the bench. */\n  bench${i}?: string;`);
    const start = process.hrtime.bigint();
    writeFileSync(path, text);
    const match = await next(/regenerated in (\d+) ms/);
    wall.push(Number(process.hrtime.bigint() - start) / 1e6);
    reported.push(Number(match[1]));
  }
  child.kill('SIGINT');
  await new Promise((done) => child.on('close', done));
  writeFileSync(path, original);
  return { wall: median(wall), reported: median(reported) };
}

function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}
