import { schemaKeywords } from '../../validation/shapes.js';
import type { JSONSchemaProps } from '../types.js';
import { openApiSchemas, refName, type OpenApiSchema } from './data.js';
import { embeddedObjectMetaFields, knownSchemas, markerValidations, objectMetaDefinition } from './known.js';

/**
 * Turns a served OpenAPI v3 definition into a self-contained structural CRD schema:
 * `$ref`s and `allOf: [{$ref}]` wrappers are inlined (the wrapper's description wins over
 * the referenced type's), known types take their CRD form, marker validations the served
 * schema lacks are added (metav1.Condition), an embedded ObjectMeta keeps name,
 * namespace, labels, annotations and finalizers, and keywords CRDs do not accept
 * (`x-kubernetes-group-version-kind`, patch strategies, unions) are dropped. So are the
 * zero-value defaults the served schema documents for Go struct fields (`{}` on every
 * struct; `""`, `0`, `false` on required fields, items and map values): in a CRD the API
 * server would apply them, and `spec: {}` under a template would not even validate. Zero
 * defaults on optional fields stay: they come from `+default` markers, and list-map keys
 * such as `imagePullSecrets[*].name` need them. A type that contains itself becomes an
 * object preserving unknown fields where it recurs.
 */
export function inlineDefinition(name: string): JSONSchemaProps {
  return new Inliner().definition(name);
}

class Inliner {
  private readonly expanding: string[] = [];
  /** Definitions whose expansion did not depend on an enclosing recursion. */
  private readonly done = new Map<string, JSONSchemaProps>();
  private recursions = 0;

  definition(name: string): JSONSchemaProps {
    const known = knownSchemas[name];
    if (known) return sortKeys(known());
    const cached = this.done.get(name);
    if (cached) return structuredClone(cached);
    const raw = openApiSchemas()[name];
    if (!raw) throw new Error(`no OpenAPI definition ${name}`);
    if (this.expanding.includes(name)) {
      this.recursions++;
      return sortKeys({ ...describe(raw), ...(raw.type === 'object' ? { type: 'object' } : {}), 'x-kubernetes-preserve-unknown-fields': true });
    }
    const recursionsBefore = this.recursions;
    this.expanding.push(name);
    const schema = name === objectMetaDefinition ? this.embeddedObjectMeta(raw) : this.convert(raw);
    for (const [field, validations] of Object.entries(markerValidations[name] ?? {})) {
      const property = schema.properties?.[field];
      if (property && schema.properties) schema.properties[field] = sortKeys({ ...property, ...structuredClone(validations) });
    }
    this.expanding.pop();
    if (this.recursions === recursionsBefore) this.done.set(name, structuredClone(schema));
    return schema;
  }

  private embeddedObjectMeta(raw: OpenApiSchema): JSONSchemaProps {
    const properties = (raw.properties ?? {}) as Record<string, OpenApiSchema>;
    const kept = Object.fromEntries(embeddedObjectMetaFields.filter((field) => properties[field]).map((field) => [field, properties[field]]));
    return this.convert({ ...raw, properties: kept });
  }

  private convert(raw: OpenApiSchema): JSONSchemaProps {
    if (typeof raw.$ref === 'string') return this.definition(refName(raw.$ref));
    const wrapped = wrappedRef(raw);
    if (wrapped) {
      const { allOf: _, ...annotations } = raw;
      return sortKeys(fitListAndMapTypes({ ...this.definition(wrapped), ...this.keywords(annotations) }));
    }
    const schema = this.keywords(raw);
    // An untyped schema (apiextensions' JSON) holds any value.
    if (Object.keys(schema).every((keyword) => keyword === 'description')) schema['x-kubernetes-preserve-unknown-fields'] = true;
    return sortKeys(fitListAndMapTypes(schema));
  }

  /** A required field never takes its default: a zero-value default there only weakens `required`. */
  private properties(raw: Record<string, OpenApiSchema>, required: readonly string[]): Record<string, JSONSchemaProps> {
    const properties: Record<string, JSONSchemaProps> = {};
    for (const [field, rawProperty] of Object.entries(raw)) {
      const property = this.convert(rawProperty);
      properties[field] = required.includes(field) ? withoutZeroDefault(property) : property;
    }
    return sortKeys(properties);
  }

  /** The CRD keywords of one schema node, converted. */
  private keywords(raw: OpenApiSchema): JSONSchemaProps {
    const schema: Record<string, unknown> = {};
    for (const [keyword, value] of Object.entries(raw)) {
      if (!schemaKeywords.has(keyword)) continue;
      switch (keyword) {
        case 'properties':
          schema.properties = this.properties(value as Record<string, OpenApiSchema>, (raw.required ?? []) as string[]);
          break;
        case 'items':
          schema.items = withoutZeroDefault(this.convert(value as OpenApiSchema));
          break;
        case 'not':
          schema.not = this.convert(value as OpenApiSchema);
          break;
        case 'additionalProperties':
          schema.additionalProperties = typeof value === 'boolean' ? value : withoutZeroDefault(this.convert(value as OpenApiSchema));
          break;
        case 'allOf':
        case 'anyOf':
        case 'oneOf':
          schema[keyword] = (value as OpenApiSchema[]).map((s) => this.convert(s));
          break;
        case 'required':
          schema.required = [...(value as string[])].sort();
          break;
        case 'default':
          if (!isEmptyCollection(value)) schema.default = structuredClone(value);
          break;
        default:
          schema[keyword] = structuredClone(value);
      }
    }
    return schema as JSONSchemaProps;
  }
}

/** The referenced definition of an `allOf: [{$ref}]` wrapper, which is how v3 annotates a reference. */
function wrappedRef(raw: OpenApiSchema): string | undefined {
  const allOf = raw.allOf;
  if (!Array.isArray(allOf) || allOf.length !== 1) return undefined;
  const [only] = allOf as OpenApiSchema[];
  return only && Object.keys(only).length === 1 && typeof only.$ref === 'string' ? refName(only.$ref) : undefined;
}

function describe(raw: OpenApiSchema): { description?: string } {
  return typeof raw.description === 'string' ? { description: raw.description } : {};
}

function isEmptyCollection(value: unknown): boolean {
  return typeof value === 'object' && value !== null && Object.keys(value).length === 0;
}

/**
 * Built-in types use list and map types in two ways a CRD may not: on a `[]byte` (a string
 * here), and as a map list keyed by a field that is neither required nor defaulted
 * (`ServiceAccount.secrets[*].name`). The first is dropped; the second becomes an atomic
 * list, which server-side apply replaces as a whole.
 */
function fitListAndMapTypes(schema: JSONSchemaProps): JSONSchemaProps {
  if (schema['x-kubernetes-list-type'] !== undefined && schema.type !== 'array') delete schema['x-kubernetes-list-type'];
  if (schema['x-kubernetes-map-type'] !== undefined && schema.type !== 'object') delete schema['x-kubernetes-map-type'];
  const items = schema.items;
  const keys = schema['x-kubernetes-list-map-keys'] ?? [];
  const present = (key: string) => items?.required?.includes(key) || items?.properties?.[key]?.default !== undefined;
  if (schema['x-kubernetes-list-type'] === 'map' && !keys.every(present)) {
    schema['x-kubernetes-list-type'] = 'atomic';
    delete schema['x-kubernetes-list-map-keys'];
  }
  return schema;
}

/** Drops a `""`/`0`/`false` default where it can only be Go's zero value, not a choice. */
function withoutZeroDefault(schema: JSONSchemaProps): JSONSchemaProps {
  if (schema.default === '' || schema.default === 0 || schema.default === false) delete schema.default;
  return schema;
}

/** A copy with keys in code-point order, the order controller-gen writes schema keywords in. */
function sortKeys<T extends object>(object: T): T {
  return Object.fromEntries(Object.entries(object).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) as T;
}
