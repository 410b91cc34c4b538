import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { bookDir } from './commands.js';

/** One section of the Troubleshooting chapter: its heading, the command it shows and what that prints. */
export interface Trouble {
  readonly heading: string;
  /** The `$ ` lines of its console block, without the prompt. */
  readonly commands: string[];
  /** The other lines: what the commands print, `…` standing for what differs between runs. */
  readonly printed: string[];
}

/** The chapter's sections, in order. */
export function troubles(): Trouble[] {
  const text = readFileSync(join(bookDir, 'troubleshooting.md'), 'utf8');
  return text
    .split(/^## /m)
    .slice(1)
    .map((section) => {
      const heading = section.slice(0, section.indexOf('\n'));
      const block = /^```console\n([\s\S]*?)^```$/m.exec(section)?.[1]?.trimEnd().split('\n') ?? [];
      return {
        heading,
        commands: block.filter((l) => l.startsWith('$ ')).map((l) => l.slice(2)),
        printed: block.filter((l) => !l.startsWith('$ ')),
      };
    });
}

/**
 * The printed lines that `output` lacks: each line must match one of its lines, in order,
 * `…` matching anything and a line of only `…` matching any number of lines.
 */
export function missingLines(printed: string[], output: string): string[] {
  const lines = output.split('\n').map((l) => l.trimEnd());
  const missing: string[] = [];
  let at = 0;
  for (const expected of printed.filter((l) => l !== '…')) {
    const pattern = new RegExp(`^${expected.split('…').map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('.*')}$`);
    const found = lines.findIndex((line, i) => i >= at && pattern.test(line));
    if (found < 0) missing.push(expected);
    else at = found + 1;
  }
  return missing;
}
