import type { CelSchema } from './schema.js';

/** cel-js type declarations of one schema: named object types, and the type of each node. */
export interface SchemaTypes {
  /** Object types to register, name → field types (CEL field names). */
  objects: Map<string, Record<string, string>>;
  typeOf(node: CelSchema): string;
}

/** CEL's reserved words: a property named so is reached as `__{word}__` (Kubernetes' escaping). */
const reserved = new Set(['true', 'false', 'null', 'in', 'as', 'break', 'const', 'continue', 'else', 'for', 'function', 'if', 'import', 'let', 'loop', 'package', 'namespace', 'return', 'var', 'void', 'while']);

/** A property's name in CEL, as Kubernetes escapes it; undefined when CEL cannot name it. */
export function celName(name: string): string | undefined {
  if (reserved.has(name)) return `__${name}__`;
  if (!/^[A-Za-z_.\-/][A-Za-z0-9_.\-/]*$/.test(name)) return undefined;
  return name.replace(/__/g, '__underscores__').replace(/\./g, '__dot__').replace(/-/g, '__dash__').replace(/\//g, '__slash__');
}

/**
 * The CEL type of every node of a structural schema, as the API server declares it: objects
 * with properties become object types (the root's and embedded resources' `metadata` with
 * `name` and `generateName` only), maps `map<string, V>`, lists `list<E>`, int-or-string and
 * schemas without a type `dyn`, strings of format date(-time)/duration/byte timestamps,
 * durations, bytes. Like the API server, it ignores `x-kubernetes-preserve-unknown-fields`: an
 * object that keeps unknown fields has the fields it declares (none, if it declares none).
 */
export function schemaTypes(root: CelSchema): SchemaTypes {
  const objects = new Map<string, Record<string, string>>();
  const types = new Map<CelSchema, string>();
  let counter = 0;
  const metadata = (): string => {
    const name = `Object${counter++}`;
    objects.set(name, { name: 'string', generateName: 'string' });
    return name;
  };

  function visit(node: CelSchema, isRoot: boolean): string {
    const known = types.get(node);
    if (known) return known;
    let type: string;
    if (node['x-kubernetes-int-or-string']) type = 'dyn';
    else if (node.type === 'string') type = node.format === 'byte' ? 'bytes' : node.format === 'duration' ? 'google.protobuf.Duration' : node.format === 'date-time' || node.format === 'date' ? 'google.protobuf.Timestamp' : 'string';
    else if (node.type === 'integer') type = 'int';
    else if (node.type === 'number') type = 'double';
    else if (node.type === 'boolean') type = 'bool';
    else if (node.type === 'array') type = node.items ? `list<${visit(node.items, false)}>` : 'list<dyn>';
    else if (node.type === 'object' && typeof node.additionalProperties === 'object') type = `map<string, ${visit(node.additionalProperties, false)}>`;
    else if (node.type === 'object') {
      const name = `Object${counter++}`;
      types.set(node, name); // before the fields: a field's type may be this one again
      const fields: Record<string, string> = {};
      const embedded = isRoot || node['x-kubernetes-embedded-resource'];
      if (embedded) Object.assign(fields, { apiVersion: 'string', kind: 'string', metadata: metadata() });
      for (const [property, child] of Object.entries(node.properties ?? {})) {
        const cel = celName(property);
        if (cel === undefined || (embedded && property === 'metadata')) continue;
        fields[cel] = visit(child, false);
      }
      objects.set(name, fields);
      type = name;
    } else type = 'dyn';
    types.set(node, type);
    return type;
  }

  visit(root, true);
  return { objects, typeOf: (node) => types.get(node) ?? visit(node, false) };
}
