import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The book's folder; chapters that include a file of docs/ are read with it. */
export const bookDir = fileURLToPath(new URL('../../book/', import.meta.url));

/** One command of a shell block, as a reader would type it. */
export interface BookCommand {
  /** The chapter's file name, e.g. `webhooks.md`. */
  readonly chapter: string;
  /** Its line in that file (of the included file for docs/ chapters). */
  readonly line: number;
  /** The command with its prompt, trailing comment and line continuations removed. */
  readonly text: string;
}

/** The book's chapters, by file name, in order. */
const chapters = () => readdirSync(bookDir).filter((f) => f.endsWith('.md')).sort();

/** A chapter's text with `<!--@include: …-->` lines replaced by the files they include. */
function chapterText(file: string): string {
  const text = readFileSync(join(bookDir, file), 'utf8');
  return text.replace(/^<!--@include: (.+)-->$/gm, (_, path: string) => readFileSync(join(bookDir, path), 'utf8'));
}

/**
 * Every command of every ```sh and ```console block of the book, in chapter order. In a
 * transcript (a console block, or lines starting with `$ `), only the prompted lines are
 * commands; the rest is what they print.
 */
export function bookCommands(): BookCommand[] {
  const commands: BookCommand[] = [];
  for (const chapter of chapters()) {
    const lines = chapterText(chapter).split('\n');
    for (let i = 0; i < lines.length; i++) {
      if (lines[i] !== '```sh' && lines[i] !== '```console') continue;
      const isConsole = lines[i] === '```console';
      const start = i + 1;
      const block: string[] = [];
      while (lines[++i] !== '```') block.push(lines[i]!);
      const transcript = isConsole || block.some((l) => l.startsWith('$ '));
      for (let j = 0; j < block.length; j++) {
        let text = block[j]!;
        const line = start + j + 1;
        if (transcript) {
          if (!text.startsWith('$ ')) continue;
          text = text.slice(2);
        }
        while (text.endsWith('\\')) text = `${text.slice(0, -1).trimEnd()} ${block[++j]!.trim()}`;
        text = text.replace(/\s+#\s.*$/, '').trim();
        if (text) commands.push({ chapter, line, text });
      }
    }
  }
  return commands;
}

/** The arguments of an opgen command line (`npx [--yes] opgen[@tag] …` or `opgen …`), or undefined. */
export function opgenArgs(text: string): string[] | undefined {
  const match = /^(?:npx (?:--yes )?)?opgen(?:@\S+)? (.*)$/.exec(text);
  return match ? match[1]!.split(/\s+/) : undefined;
}

/** An opgen command named in a chapter's prose, e.g. `opgen edit --namespaced[=false]`. */
export interface ProseCommand {
  readonly chapter: string;
  /** The command's words before its first option, e.g. `['edit']`. */
  readonly command: string[];
  /** The long options it names, without values, e.g. `['--namespaced']`. */
  readonly options: string[];
  readonly text: string;
}

/** Every inline code span of the book that names an opgen command with long options. */
export function proseCommands(): ProseCommand[] {
  const found: ProseCommand[] = [];
  for (const chapter of chapters()) {
    const prose = chapterText(chapter).replace(/^```[\s\S]*?^```$/gm, '');
    for (const [, text] of prose.matchAll(/`((?:npx )?opgen [^`]*--[^`]*)`/g)) {
      const args = opgenArgs(text!)!;
      const first = args.findIndex((a) => /^[-[<]/.test(a));
      const options = [...text!.matchAll(/(?<![\w-])(--[a-z][a-z-]*)/g)].map((m) => m[1]!);
      found.push({ chapter, command: args.slice(0, first), options, text: text! });
    }
  }
  return found;
}
