/**
 * package.json with the ranges of opgen's packages (`@opgen/runtime`, the `opgen` CLI) moved
 * to `^<version>`: the runtime a scaffold is written for comes with it. A spec that is not a
 * registry range (`file:`, a tag, a URL) was chosen by hand and stays. Undefined when there
 * is nothing to change, or when the text is not JSON (a merge conflict in it).
 */
export function withOpgenRanges(text: string, version: string): string | undefined {
  let manifest: { dependencies?: Record<string, string>; devDependencies?: Record<string, string> };
  try {
    manifest = JSON.parse(text) as typeof manifest;
  } catch {
    return undefined;
  }
  const wanted = `^${version}`;
  let changed = false;
  for (const [group, name] of [['dependencies', '@opgen/runtime'], ['devDependencies', 'opgen']] as const) {
    const spec = manifest[group]?.[name];
    if (spec === undefined || spec === wanted || !/^[\^~]?\d+\.\d+\.\d+/.test(spec)) continue;
    manifest[group]![name] = wanted;
    changed = true;
  }
  return changed ? `${JSON.stringify(manifest, null, 2)}\n` : undefined;
}
