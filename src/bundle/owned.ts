import type { KubeObject } from './objects.js';

/** One field of a kind that the OLM console shows, found by its path under spec or status. */
export interface Descriptor {
  path: string;
  displayName: string;
  description?: string;
}

/** An entry of the CSV's `spec.customresourcedefinitions.owned`. */
export interface OwnedCrd {
  name: string;
  version: string;
  kind: string;
  displayName: string;
  description?: string;
  specDescriptors?: Descriptor[];
  statusDescriptors?: Descriptor[];
  [field: string]: unknown;
}

interface Schema {
  description?: string;
  properties?: Record<string, Schema>;
}

interface CrdVersion {
  name: string;
  served?: boolean;
  storage?: boolean;
  schema?: { openAPIV3Schema?: Schema };
}

/**
 * The owned entries for one CRD, one per served version: the display name from the kind
 * (`PodSet` → `Pod Set`), the description from the kind's doc comment (the schema's top
 * description, which opgen manifests copies from it), and a descriptor for every top-level
 * field of spec and status, named and described from the schema: operator-sdk needs a
 * marker per field for these, opgen derives them.
 */
export function ownedEntries(crd: KubeObject): OwnedCrd[] {
  const spec = crd.spec as { names: { kind: string }; versions: CrdVersion[] };
  const kind = spec.names.kind;
  return spec.versions
    .filter((v) => v.served !== false)
    .map((version) => {
      const schema = version.schema?.openAPIV3Schema;
      const description = schema?.description?.trim();
      return {
        name: crd.metadata.name,
        version: version.name,
        kind,
        displayName: displayName(kind),
        description,
        specDescriptors: descriptors(schema?.properties?.spec),
        statusDescriptors: descriptors(schema?.properties?.status),
      };
    });
}

function descriptors(schema: Schema | undefined): Descriptor[] | undefined {
  const fields = Object.entries(schema?.properties ?? {});
  if (!fields.length) return undefined;
  return fields
    .sort(([a], [b]) => (a < b ? -1 : 1))
    .map(([path, field]) => ({ path, displayName: displayName(path), description: firstSentence(field.description) }));
}

/** `replicaCount` → `Replica Count`, `PodSet` → `Pod Set`. */
export function displayName(name: string): string {
  const words = name.replace(/([a-z0-9])([A-Z])/g, '$1 $2').replace(/([A-Z]+)([A-Z][a-z])/g, '$1 $2');
  return words.charAt(0).toUpperCase() + words.slice(1);
}

/** The console shows descriptions in a line: the first paragraph of the doc comment. */
function firstSentence(text: string | undefined): string | undefined {
  const paragraph = text?.split(/\n\s*\n/)[0]?.replace(/\s+/g, ' ').trim();
  return paragraph || undefined;
}
