import { readFileSync } from 'node:fs';
import { compareVersions } from './scaffold-version.js';

// At the package root, beside package.json, from src/upgrade/ and dist/upgrade/ alike.
const changelogFile = new URL('../../CHANGELOG.md', import.meta.url);

/**
 * The sections of CHANGELOG.md (`## <version>` headings) for the releases after `from` up to
 * and including `to`: what changed between the project's opgen and the running one. `from`
 * undefined (a project older than PROJECT's cliVersion) takes every release up to `to`.
 */
export function changelogBetween(from: string | undefined, to: string, text: string = readFileSync(changelogFile, 'utf8')): string {
  const sections = text.split(/^(?=## )/m).slice(1);
  return sections
    .filter((section) => {
      const version = /^## \[?v?(\d+\.\d+\.\d+(?:-[\w.]+)?)/.exec(section)?.[1];
      return version !== undefined && (from === undefined || compareVersions(version, from) > 0) && compareVersions(version, to) <= 0;
    })
    .map((section) => section.trimEnd())
    .join('\n\n');
}
