/**
 * Helm templates are YAML with Go template actions in it, which no YAML library writes.
 * So a chart object is built as data with placeholder tokens where actions go, serialized
 * with the `yaml` library like every other manifest, and the tokens are then replaced by
 * the actions: a token inside a scalar by an inline action, a token standing for a whole
 * map entry or list item by lines of template at that entry's indentation.
 */
export interface Splicer {
  /** A scalar (or part of one) that becomes `action`, e.g. `{{ .Values.replicaCount }}`. */
  inline(action: string): string;
  /**
   * A map key (with a null value) or a list item that becomes the lines `render` returns
   * for the column the key or item starts at, e.g. a `{{- with ... }}` block.
   */
  block(render: (indent: number) => readonly string[]): string;
  /** The serialized YAML with every token replaced. */
  splice(yamlText: string): string;
}

const tokenPattern = /__opgen_helm_(\d+)__/g;
// A block token alone on its line: as a map key (`tok: null`) or as a list item (`- tok`).
const blockLine = /^( *)(- )?__opgen_helm_(\d+)__(: null)?$/;

/** A fresh set of tokens for one template file. */
export function createSplicer(): Splicer {
  const inlines = new Map<number, string>();
  const blocks = new Map<number, (indent: number) => readonly string[]>();
  let next = 0;
  const token = (n: number) => `__opgen_helm_${n}__`;

  return {
    inline(action) {
      inlines.set(next, action);
      return token(next++);
    },
    block(render) {
      blocks.set(next, render);
      return token(next++);
    },
    splice(yamlText) {
      const lines = yamlText.split('\n').flatMap((line) => {
        const match = blockLine.exec(line);
        const render = match ? blocks.get(Number(match[3])) : undefined;
        if (!match || !render) return [line];
        const [, spaces = '', dash, , asKey] = match;
        if (dash && asKey) {
          // The lines would have to start after the dash; no generator puts a block first in an item.
          throw new Error(`a template block cannot be the first key of a list item: ${line}`);
        }
        return render(spaces.length).map((text) => spaces + text);
      });
      return lines.join('\n').replace(tokenPattern, (whole, n: string) => {
        const action = inlines.get(Number(n));
        if (action === undefined) throw new Error(`template token ${whole} was not spliced`);
        return action;
      });
    },
  };
}

/** True when a string from the project holds text that looks like a token (never in practice). */
export function looksLikeToken(text: string): boolean {
  return /__opgen_helm_\d+__/.test(text);
}
