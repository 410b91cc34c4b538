/**
 * What apiextensions-apiserver refuses when a CustomResourceDefinition is created, with its
 * field paths and messages. Covered: the CRD's name, group, scope, names (kind, plural),
 * version names, exactly one storage version, a schema per version, the schema's structural
 * refusals ({@link structuralFindings}, {@link defaultFindings}: the same findings
 * `opgen manifests` reports), and CEL rules (`oldSelf` where values cannot be correlated,
 * syntax errors).
 * Also: selectable fields naming a field the schema declares, scale subresource paths under
 * `.spec`/`.status`.
 * CEL type checking and cost estimation are `opgen manifests`' own (cel-admission.ts).
 * Not covered: cel-go's and Go regexp's error texts (a rule that does not parse or type-check
 * is refused with cel-js' message), conversion webhooks, printer
 * columns, the types selectable fields may have, and the printed value of `spec.versions`
 * when versions differ in schema or subresources.
 *
 * @module
 */
import { fieldPathFindings } from '../cel/index.js';
import { celSchemaErrors, printedRule } from './cel-admission.js';
import { compile } from './cel-eval/environment.js';
import { structuralFindings } from './crd-schema.js';
import { goQuote } from './paths.js';
import { defaultFindings } from './schema-defaults.js';
import type { CrdLike, FieldError, SchemaNode } from './types.js';

const DNS1123_SUBDOMAIN = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/;
const DNS1035_LABEL = /^[a-z]([-a-z0-9]*[a-z0-9])?$/;
const SUBDOMAIN_MESSAGE =
  "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')";
const LABEL_MESSAGE =
  "a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character (e.g. 'my-name',  or 'abc-123', regex used for validation is '[a-z]([-a-z0-9]*[a-z0-9])?')";

/**
 * The errors the API server answers a create of `crd` with (422); empty when it accepts it.
 *
 * @example
 * const errors = admitCrd(crd);
 * if (errors.length) throw new Error(invalidMessage('CustomResourceDefinition.apiextensions.k8s.io', crd.metadata.name, errors));
 */
export function admitCrd(crd: CrdLike): FieldError[] {
  const errors: FieldError[] = [];
  const spec = crd.spec ?? ({} as CrdLike['spec']);
  const name = crd.metadata?.name ?? '';
  const names = spec.names ?? ({} as CrdLike['spec']['names']);
  const versions = (spec.versions ?? []) as VersionLike[];
  if (name !== `${names.plural}.${spec.group}`) errors.push({ type: 'FieldValueInvalid', field: 'metadata.name', value: goQuote(name), detail: 'must be spec.names.plural+"."+spec.group' });
  else if (!DNS1123_SUBDOMAIN.test(name)) errors.push({ type: 'FieldValueInvalid', field: 'metadata.name', value: goQuote(name), detail: SUBDOMAIN_MESSAGE });

  if (!spec.group) errors.push({ type: 'FieldValueRequired', field: 'spec.group' });
  else if (!spec.group.includes('.')) errors.push({ type: 'FieldValueInvalid', field: 'spec.group', value: goQuote(spec.group), detail: 'should be a domain with at least one dot' });
  if (spec.scope !== 'Cluster' && spec.scope !== 'Namespaced') {
    errors.push({ type: 'FieldValueNotSupported', field: 'spec.scope', value: goQuote(spec.scope ?? ''), detail: 'supported values: "Cluster", "Namespaced"' });
  }
  versions.forEach((version, i) => {
    if (!DNS1035_LABEL.test(version.name)) errors.push({ type: 'FieldValueInvalid', field: `spec.versions[${i}].name`, value: goQuote(version.name), detail: LABEL_MESSAGE });
  });
  // The internal version's `spec.version` is the first version's name.
  if (versions[0] && !DNS1035_LABEL.test(versions[0].name)) errors.push({ type: 'FieldValueInvalid', field: 'spec.version', value: goQuote(versions[0].name), detail: LABEL_MESSAGE });

  if (!names.plural) errors.push({ type: 'FieldValueRequired', field: 'spec.names.plural' });
  else if (!DNS1035_LABEL.test(names.plural)) errors.push({ type: 'FieldValueInvalid', field: 'spec.names.plural', value: goQuote(names.plural), detail: LABEL_MESSAGE });
  if (!names.kind) errors.push({ type: 'FieldValueRequired', field: 'spec.names.kind' });

  const storage = versions.filter((v) => v.storage === true);
  if (storage.length !== 1) {
    errors.push({ type: 'FieldValueInvalid', field: 'spec.versions', value: printedVersions(crd), detail: 'must have exactly one version marked as storage version' });
    if (storage.length === 0) errors.push({ type: 'FieldValueInvalid', field: 'status.storedVersions', value: 'null', detail: 'must have at least one stored version' });
    else errors.push({ type: 'FieldValueInvalid', field: 'status.storedVersions', value: JSON.stringify([storage[0]!.name]), detail: `must have the storage version ${storage[storage.length - 1]!.name}` });
  }

  const schemas = versions.map((v) => v.schema?.openAPIV3Schema);
  const shared = versions.length > 0 && schemas.every((s) => JSON.stringify(s) === JSON.stringify(schemas[0]));
  versions.forEach((version, i) => {
    const schema = version.schema?.openAPIV3Schema;
    if (!schema) {
      errors.push({ type: 'FieldValueRequired', field: `spec.versions[${i}].schema.openAPIV3Schema` });
      return;
    }
    if (shared && i > 0) return;
    checkSchema(schema, shared ? 'spec.validation.openAPIV3Schema' : `spec.versions[${i}].schema.openAPIV3Schema`, errors);
  });
  // The internal version keeps selectable fields and subresources once when every version has the same.
  const same = (pick: (v: VersionLike) => unknown) => versions.length > 0 && versions.every((v) => JSON.stringify(pick(v)) === JSON.stringify(pick(versions[0]!)));
  const selectableShared = same((v) => v.selectableFields);
  const subresourcesShared = same((v) => v.subresources);
  versions.forEach((version, i) => {
    const schema = version.schema?.openAPIV3Schema;
    if (schema && (!selectableShared || i === 0)) {
      (version.selectableFields ?? []).forEach((selectable, j) => {
        if (!schemaHasPath(schema, selectable.jsonPath)) {
          const at = selectableShared ? `spec.selectableFields[${j}].jsonPath` : `spec.versions[${i}].selectableFields[${j}].jsonPath`;
          errors.push({ type: 'FieldValueInvalid', field: at, value: goQuote(selectable.jsonPath), detail: 'is an invalid path: does not refer to a valid field' });
        }
      });
    }
    const scale = version.subresources?.scale;
    if (scale && (!subresourcesShared || i === 0)) checkScale(scale, subresourcesShared ? 'spec.subresources.scale' : `spec.versions[${i}].subresources.scale`, errors);
  });
  return errors;
}

type VersionLike = CrdLike['spec']['versions'][number] & { selectableFields?: Array<{ jsonPath: string }>; subresources?: { scale?: ScaleLike } };
interface ScaleLike {
  specReplicasPath?: string;
  statusReplicasPath?: string;
  labelSelectorPath?: string;
}

function checkScale(scale: ScaleLike, path: string, errors: FieldError[]): void {
  const under = (jsonPath: string | undefined, prefixes: string[]) => jsonPath === undefined || prefixes.some((prefix) => jsonPath.startsWith(`${prefix}.`));
  if (!under(scale.specReplicasPath, ['.spec'])) errors.push({ type: 'FieldValueInvalid', field: `${path}.specReplicasPath`, value: goQuote(scale.specReplicasPath!), detail: 'should be a json path under .spec' });
  if (!under(scale.statusReplicasPath, ['.status'])) errors.push({ type: 'FieldValueInvalid', field: `${path}.statusReplicasPath`, value: goQuote(scale.statusReplicasPath!), detail: 'should be a json path under .status' });
  if (!under(scale.labelSelectorPath, ['.spec', '.status'])) errors.push({ type: 'FieldValueInvalid', field: `${path}.labelSelectorPath`, value: goQuote(scale.labelSelectorPath!), detail: 'should be a json path under either .spec or .status' });
}

/** Whether the schema declares the field `jsonPath` (`.spec.model`) names, through properties (preserving unknown fields is not enough). */
function schemaHasPath(schema: SchemaNode, jsonPath: string): boolean {
  let at: SchemaNode | undefined = schema;
  for (const field of jsonPath.replace(/^\./, '').split('.')) at = at?.properties?.[field];
  return at !== undefined;
}

/** Go's JSON of the internal versions, as the storage-version error prints them (schemas shared, so moved out). */
function printedVersions(crd: CrdLike): string {
  return JSON.stringify(
    crd.spec.versions.map((v) => {
      const extra = v as { deprecated?: boolean; deprecationWarning?: string };
      return { Name: v.name, Served: v.served ?? false, Storage: v.storage ?? false, Deprecated: extra.deprecated ?? false, DeprecationWarning: extra.deprecationWarning ?? null, Schema: null, Subresources: null, AdditionalPrinterColumns: null, SelectableFields: null };
    }),
  );
}

function checkSchema(root: SchemaNode, rootPath: string, errors: FieldError[]): void {
  const schemaErrors = [...structuralFindings(root, rootPath), ...defaultFindings(root)].map(({ error }) => ({ ...error, field: error.field === '' ? rootPath : `${rootPath}.${error.field}` }));
  errors.push(...schemaErrors);
  celRules(root, rootPath, true, '', errors);
  // The API server type-checks and costs the rules only of a structural schema without errors (a rule's own errors aside).
  if (schemaErrors.every((error) => error.field.includes('.x-kubernetes-validations['))) errors.push(...celSchemaErrors(root, rootPath));
}

/** The rules whose fieldPath names no field, that use oldSelf where values cannot be correlated, or that do not compile. */
function celRules(node: SchemaNode, path: string, correlatable: boolean, correlationRoot: string, errors: FieldError[]): void {
  (node['x-kubernetes-validations'] ?? []).forEach((rule, i) => {
    const at = `${path}.x-kubernetes-validations[${i}]`;
    for (const { detail } of fieldPathFindings(node, rule.fieldPath ?? '')) errors.push({ type: 'FieldValueInvalid', field: `${at}.fieldPath`, value: goQuote(rule.fieldPath!), detail });
    if (rule.rule.trim() === '') return;
    if (/\boldSelf\b/.test(rule.rule) && !correlatable) {
      errors.push({ type: 'FieldValueInvalid', field: `${at}.rule`, value: goQuote(rule.rule), detail: `oldSelf cannot be used on the uncorrelatable portion of the schema within ${correlationRoot}` });
      return;
    }
    const compiled = compile(rule.rule, rule.optionalOldSelf === true);
    if (compiled instanceof Error) {
      errors.push({ type: 'FieldValueInvalid', field: `${at}.rule`, value: printedRule(rule), detail: `compilation failed: ${compiled.message.split('\n')[0]}` });
    }
  });
  for (const [name, child] of Object.entries(node.properties ?? {})) celRules(child, `${path}.properties[${name}]`, correlatable, correlationRoot, errors);
  if (typeof node.additionalProperties === 'object') celRules(node.additionalProperties, `${path}.additionalProperties`, correlatable, correlationRoot, errors);
  if (node.items) {
    const keeps = correlatable && node['x-kubernetes-list-type'] === 'map';
    celRules(node.items, `${path}.items`, keeps, keeps ? correlationRoot : correlatable ? path : correlationRoot, errors);
  }
}
