// Shared by the hack/*/update.mjs scripts that derive a data file opgen ships or reads.
import { readFileSync, writeFileSync } from 'node:fs';

/** Object keys in code-point order at every depth; arrays keep their order. */
export function sortKeys(value) {
  if (Array.isArray(value)) return value.map(sortKeys);
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(Object.keys(value).sort().map((key) => [key, sortKeys(value[key])]));
}

/**
 * Writes `content` to `output`, or with --check only compares: a file that differs (or is
 * missing) sets exit code 1 and names `script` to run. `summary` says what the file holds.
 */
export function writeOrCheck(output, content, summary, script) {
  if (!process.argv.includes('--check')) {
    writeFileSync(output, content);
    console.log(`${output}: ${summary}`);
    return;
  }
  let current = '';
  try {
    current = readFileSync(output, 'utf8');
  } catch {
    // A missing file is stale too.
  }
  if (current !== content) {
    console.error(`${output} is stale: run node ${script}`);
    process.exitCode = 1;
  } else {
    console.log(`${output}: up to date (${summary})`);
  }
}
