/** Colours only for a person at a terminal, and never when NO_COLOR is set (no-color.org). */
export function useColour(stream: NodeJS.WriteStream = process.stdout): boolean {
  return Boolean(stream.isTTY) && !('NO_COLOR' in process.env && process.env.NO_COLOR !== '');
}

const codes = { red: 31, green: 32, yellow: 33, cyan: 36, bold: 1, dim: 2 } as const;

/** Wraps `text` in an ANSI colour when `useColour(stream)` allows it. */
export function paint(colour: keyof typeof codes, text: string, stream: NodeJS.WriteStream = process.stdout): string {
  return useColour(stream) ? `\u001b[${codes[colour]}m${text}\u001b[0m` : text;
}
