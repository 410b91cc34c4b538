import { readFileSync } from 'node:fs';

/** The CLI's own version, read from its package.json so there is one source of truth. */
export const cliVersion: string = (
  JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version: string }
).version;
