import type { Location } from '../errors.js';
import type { JSONSchemaProps } from '../schema/types.js';

/**
 * Where in the API files the node at a data path (`spec.items[*].name`, as the structural
 * checks report them) was declared: the deepest node on the path with a known location.
 */
export function locatePath(
  schema: JSONSchemaProps,
  path: string,
  locations: WeakMap<JSONSchemaProps, Location>,
): Location | undefined {
  let node: JSONSchemaProps | undefined = schema;
  let found = locations.get(schema);
  const tokens = path.match(/\["(?:[^"\\]|\\.)*"\]|\[[^\]]*\]|[^.[\]]+/g) ?? [];
  for (const token of tokens) {
    if (!node) break;
    if (token.startsWith('["')) node = node.properties?.[JSON.parse(token.slice(1, -1)) as string];
    else if (token.startsWith('[')) node = node.items ?? (typeof node.additionalProperties === 'object' ? node.additionalProperties : undefined);
    else node = node.properties?.[token];
    const at = node && locations.get(node);
    if (at) found = at;
  }
  return found;
}
