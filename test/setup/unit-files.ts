import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';

/**
 * What starts something outside the test's own process: a control plane, a CLI or operator
 * process, a shell tool. A test file that mentions one, itself or through a test helper it
 * imports, is not a unit test.
 */
const outsideProcess = /\b(startControlPlane|startTestCluster|execa|child_process|KUBEBUILDER_ASSETS)\b/;

/**
 * The test files of `npm run test:unit` (vitest.unit.config.ts): those under `roots` that are
 * not `*.integration.test.ts` and start nothing outside their process, found by reading them
 * and the test helpers they import (the runtime's own sources are not followed: the memory
 * tier lives there beside the control-plane harness).
 */
export function unitTestFiles(repo: string, roots: readonly string[]): string[] {
  const verdicts = new Map<string, boolean>();
  const startsProcess = (file: string, seen: Set<string>): boolean => {
    const known = verdicts.get(file);
    if (known !== undefined) return known;
    if (seen.has(file)) return false;
    seen.add(file);
    const text = readFileSync(file, 'utf8');
    const helpers = [...text.matchAll(/from '(\.[^']+)'/g)]
      .map((match) => resolve(dirname(file), match[1] ?? '').replace(/\.js$/, '.ts'))
      .filter((helper) => !helper.includes('/src/') && existsSync(helper));
    const verdict = outsideProcess.test(text) || helpers.some((helper) => startsProcess(helper, seen));
    verdicts.set(file, verdict);
    return verdict;
  };
  return roots
    .flatMap((root) => testFiles(join(repo, root)))
    .filter((file) => !file.endsWith('.integration.test.ts') && !startsProcess(file, new Set()))
    .map((file) => relative(repo, file));
}

function testFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    if (entry.name === 'node_modules' || entry.name === 'fixtures') return [];
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return testFiles(path);
    return entry.name.endsWith('.test.ts') ? [path] : [];
  });
}
