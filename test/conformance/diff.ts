/** One place where two CRDs disagree; a side that lacks the path holds `undefined`. */
export interface Difference {
  /** `<file> <path>`, e.g. `g_kinds.yaml versions[v1].schema.spec.size/minimum`. */
  where: string;
  opgen: unknown;
  controllerGen: unknown;
}

type Leaves = Map<string, string>;

/**
 * Compares the CRDs opgen and controller-gen wrote, keyed by file name, path by path: every
 * schema keyword (structure, validation, descriptions) and every other CRD field. Schema
 * paths read like the object they describe: `.spec.containers[*].name/description`
 * (`[*]` list items, `{*}` map values, `/keyword` a keyword of that node).
 */
export function diffCrds(opgen: ReadonlyMap<string, unknown>, controllerGen: ReadonlyMap<string, unknown>): Difference[] {
  const differences: Difference[] = [];
  const files = [...new Set([...opgen.keys(), ...controllerGen.keys()])].sort();
  for (const file of files) {
    const mine = opgen.get(file);
    const theirs = controllerGen.get(file);
    if (mine === undefined || theirs === undefined) {
      differences.push({ where: `${file} (whole file)`, opgen: mine === undefined ? undefined : 'written', controllerGen: theirs === undefined ? undefined : 'written' });
      continue;
    }
    const a = leaves(mine);
    const b = leaves(theirs);
    for (const path of [...new Set([...a.keys(), ...b.keys()])].sort()) {
      if (a.get(path) === b.get(path)) continue;
      differences.push({ where: `${file} ${path}`, opgen: parse(a.get(path)), controllerGen: parse(b.get(path)) });
    }
  }
  return differences;
}

function parse(json: string | undefined): unknown {
  return json === undefined ? undefined : JSON.parse(json);
}

function leaves(crd: unknown): Leaves {
  const out: Leaves = new Map();
  walk(crd, '', out);
  return out;
}

/**
 * A CRD outside its schemas: versions are keyed by name, schemas get schema paths. A webhook
 * configuration's webhooks are keyed by name too.
 */
function walk(value: unknown, path: string, out: Leaves): void {
  if (Array.isArray(value) && path === 'spec.versions') {
    for (const version of value as { name: string }[]) walk(version, `versions[${version.name}]`, out);
    return;
  }
  if (Array.isArray(value) && path === 'webhooks') {
    for (const webhook of value as { name: string }[]) walk(webhook, `webhooks[${webhook.name}]`, out);
    return;
  }
  if (isObject(value)) {
    for (const [key, child] of Object.entries(value)) {
      const childPath = path ? `${path}.${key}` : key;
      if (key === 'openAPIV3Schema' && /^versions\[[^\]]+\]\.schema$/.test(path)) walkSchema(child, path, out);
      else walk(child, childPath, out);
    }
    return;
  }
  out.set(path, JSON.stringify(value));
}

function walkSchema(schema: unknown, path: string, out: Leaves): void {
  if (!isObject(schema)) {
    out.set(path, JSON.stringify(schema));
    return;
  }
  for (const [keyword, value] of Object.entries(schema)) {
    if (keyword === 'properties' && isObject(value)) {
      for (const [name, property] of Object.entries(value)) walkSchema(property, `${path}.${name}`, out);
    } else if (keyword === 'items' && isObject(value)) {
      walkSchema(value, `${path}[*]`, out);
    } else if (keyword === 'additionalProperties' && isObject(value)) {
      walkSchema(value, `${path}{*}`, out);
    } else {
      out.set(`${path}/${keyword}`, JSON.stringify(value));
    }
  }
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
