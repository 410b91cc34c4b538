/**
 * Every marker `opgen manifests` understands: controller-gen v0.21's CRD, RBAC and webhook
 * markers with the same names, arguments and meaning, and where each may be written.
 *
 * @module
 */

/** Where a marker may be written: a version folder's `groupversion_info.ts`, a type, or a property. */
export type Target = 'package' | 'type' | 'field';

/** How a marker's value or argument is read (controller-gen's grammar for each Go type). */
export type ValueType =
  | 'string'
  | 'int'
  | 'number'
  | 'bool'
  /** `a;b;c` or `{a,b,c}` */
  | 'stringList'
  /** controller-gen's guessed literal: `{a,b}`, `{key: "v"}`, numbers, booleans, strings. */
  | 'any'
  /** `a;b;c` of guessed literals (Enum). */
  | 'anyList'
  /** `+default=` takes JSON. */
  | 'json'
  /** A JSON object or array inside `key=value,…` arguments, kept with its text and offset. */
  | 'jsonArg';

export interface ArgDef {
  type: ValueType;
  optional?: boolean;
}

export interface MarkerDef {
  /** The name as written after `+`, e.g. `kubebuilder:validation:Minimum`. */
  name: string;
  targets: readonly Target[];
  /** `+name=value`; a `bool` value may be left out (`+name` means true). */
  value?: ValueType;
  /** `+name:key=value,key2=value2`. */
  args?: Readonly<Record<string, ArgDef>>;
  /** May be given several times on one declaration, each adding to the others. */
  repeatable?: boolean;
  /** Markers other tools read: accepted anywhere with any text after the name, and ignored here. */
  ignored?: boolean;
  help: string;
}

const anywhere: readonly Target[] = ['package', 'type', 'field'];
const fieldAndType: readonly Target[] = ['field', 'type'];

const xValidationArgs = {
  rule: { type: 'string' },
  message: { type: 'string', optional: true },
  messageExpression: { type: 'string', optional: true },
  reason: { type: 'string', optional: true },
  fieldPath: { type: 'string', optional: true },
  optionalOldSelf: { type: 'bool', optional: true },
} as const satisfies Record<string, ArgDef>;

/** The `kubebuilder:validation:<Name>` markers, which also exist as `kubebuilder:validation:items:<Name>`. */
const schemaValidations: readonly Omit<MarkerDef, 'targets'>[] = [
  { name: 'Maximum', value: 'number', help: 'the largest value a number may have' },
  { name: 'Minimum', value: 'number', help: 'the smallest value a number may have' },
  { name: 'ExclusiveMaximum', value: 'bool', help: 'the maximum itself is not allowed' },
  { name: 'ExclusiveMinimum', value: 'bool', help: 'the minimum itself is not allowed' },
  { name: 'MultipleOf', value: 'number', help: 'a number must be a multiple of this' },
  { name: 'MinProperties', value: 'int', help: 'the fewest keys an object may have' },
  { name: 'MaxProperties', value: 'int', help: 'the most keys an object may have' },
  { name: 'MaxLength', value: 'int', help: 'the longest a string may be' },
  { name: 'MinLength', value: 'int', help: 'the shortest a string may be' },
  { name: 'Pattern', value: 'string', help: 'a regular expression a string must match' },
  { name: 'MaxItems', value: 'int', help: 'the most items a list may have' },
  { name: 'MinItems', value: 'int', help: 'the fewest items a list may have' },
  { name: 'UniqueItems', value: 'bool', help: 'the items of a list must differ' },
  { name: 'Enum', value: 'anyList', help: 'the only values allowed, e.g. Enum=a;b;c' },
  { name: 'Format', value: 'string', help: 'a string format such as date-time or uri' },
  { name: 'Type', value: 'string', help: 'overrides the OpenAPI type' },
  { name: 'XPreserveUnknownFields', help: 'keeps fields the schema does not name' },
  { name: 'XEmbeddedResource', help: 'an embedded object with apiVersion, kind and metadata' },
  { name: 'XIntOrString', help: 'an integer or a string' },
  { name: 'XValidation', args: xValidationArgs, repeatable: true, help: 'a CEL rule the value must satisfy' },
];

const defs: MarkerDef[] = [
  // Package level: a version folder's groupversion_info.ts.
  { name: 'groupName', targets: ['package'], value: 'string', help: 'the API group of this version folder' },
  {
    name: 'versionName',
    targets: ['package', 'type'],
    value: 'string',
    help: 'the version name, if not the folder name; on a Kind (as in the multiversion tutorial) it must agree with it',
  },
  { name: 'kubebuilder:skip', targets: ['package'], help: 'generates no CRD for this version folder' },
  {
    name: 'kubebuilder:validation:Optional',
    targets: ['package', 'field'],
    help: 'the field is optional; in groupversion_info.ts, fields are optional unless marked required',
  },
  {
    name: 'kubebuilder:validation:Required',
    targets: ['package', 'field'],
    help: 'the field is required; in groupversion_info.ts, fields are required unless marked optional',
  },
  { name: 'kubebuilder:skip:description', targets: ['package', 'field'], help: 'leaves descriptions out of the schema' },

  // Markers of other generators that sit in real kubebuilder and operator-sdk API files;
  // they mean nothing for CRDs, so they are recognised and left alone wherever they are.
  { name: 'kubebuilder:object:generate', targets: anywhere, ignored: true, help: 'deep-copy generation (Go only)' },
  { name: 'kubebuilder:scaffold', targets: anywhere, ignored: true, help: 'where `opgen create` inserts code, e.g. +kubebuilder:scaffold:imports' },
  { name: 'kubebuilder:docs-gen', targets: anywhere, ignored: true, help: "the kubebuilder book's literate-source tool, e.g. +kubebuilder:docs-gen:collapse=Apache License" },
  { name: 'kubebuilder:ac', targets: anywhere, ignored: true, help: 'apply-configuration generation (Go only)' },
  { name: 'genclient', targets: anywhere, ignored: true, help: 'client-gen (Go only), e.g. +genclient:nonNamespaced' },
  { name: 'k8s:deepcopy-gen', targets: anywhere, ignored: true, help: 'deepcopy-gen (Go only), e.g. +k8s:deepcopy-gen:interfaces=…' },
  { name: 'k8s:openapi-gen', targets: anywhere, ignored: true, help: 'openapi-gen (Go only)' },
  { name: 'k8s:conversion-gen', targets: anywhere, ignored: true, help: 'conversion-gen (Go only)' },
  { name: 'k8s:defaulter-gen', targets: anywhere, ignored: true, help: 'defaulter-gen (Go only)' },
  { name: 'k8s:prerelease-lifecycle-gen', targets: anywhere, ignored: true, help: 'prerelease-lifecycle-gen (Go only)' },
  { name: 'k8s:conversion-gen-external-types', targets: anywhere, ignored: true, help: 'conversion-gen (Go only)' },
  { name: 'k8s:defaulter-gen-input', targets: anywhere, ignored: true, help: 'defaulter-gen (Go only)' },
  { name: 'groupGoName', targets: anywhere, ignored: true, help: 'client-gen (Go only)' },
  { name: 'gencrdrefdocs', targets: anywhere, ignored: true, help: 'the gen-crd-api-reference-docs tool, e.g. +gencrdrefdocs:force' },
  // Strategic-merge-patch and protobuf hints of Kubernetes-style types; CRDs do not use them.
  { name: 'patchMergeKey', targets: anywhere, ignored: true, help: 'strategic merge patch key (not used by CRDs)' },
  { name: 'patchStrategy', targets: anywhere, ignored: true, help: 'strategic merge patch strategy (not used by CRDs)' },
  { name: 'protobuf', targets: anywhere, ignored: true, help: 'protobuf generation (Go only)' },
  {
    name: 'operator-sdk:csv:customresourcedefinitions',
    targets: fieldAndType,
    repeatable: true,
    args: {
      type: { type: 'any', optional: true },
      displayName: { type: 'string', optional: true },
      resources: { type: 'any', optional: true },
      xDescriptors: { type: 'any', optional: true },
      order: { type: 'int', optional: true },
    },
    help: "operator-sdk's ClusterServiceVersion descriptors, kept for an OLM bundle",
  },

  // RBAC and webhooks: collected from every file under src/.
  {
    name: 'kubebuilder:rbac',
    targets: anywhere,
    repeatable: true,
    args: {
      groups: { type: 'stringList', optional: true },
      resources: { type: 'stringList', optional: true },
      resourceNames: { type: 'stringList', optional: true },
      verbs: { type: 'stringList' },
      urls: { type: 'stringList', optional: true },
      namespace: { type: 'string', optional: true },
      roleName: { type: 'string', optional: true },
    },
    help: 'a rule of the manager role',
  },
  {
    name: 'kubebuilder:webhook',
    targets: anywhere,
    repeatable: true,
    args: {
      mutating: { type: 'bool' },
      failurePolicy: { type: 'string' },
      matchPolicy: { type: 'string', optional: true },
      sideEffects: { type: 'string', optional: true },
      timeoutSeconds: { type: 'int', optional: true },
      groups: { type: 'stringList' },
      resources: { type: 'stringList' },
      verbs: { type: 'stringList' },
      versions: { type: 'stringList' },
      name: { type: 'string' },
      path: { type: 'string', optional: true },
      url: { type: 'string', optional: true },
      webhookVersions: { type: 'stringList', optional: true },
      admissionReviewVersions: { type: 'stringList' },
      reinvocationPolicy: { type: 'string', optional: true },
      serviceName: { type: 'string', optional: true },
      serviceNamespace: { type: 'string', optional: true },
      servicePort: { type: 'int', optional: true },
      namespaceSelector: { type: 'jsonArg', optional: true },
      objectSelector: { type: 'jsonArg', optional: true },
      matchConditions: { type: 'jsonArg', optional: true },
    },
    help: 'an admission webhook',
  },
  {
    name: 'kubebuilder:webhookconfiguration',
    targets: anywhere,
    repeatable: true,
    args: { mutating: { type: 'bool' }, name: { type: 'string', optional: true } },
    help: 'names the mutating or validating webhook configuration',
  },

  // Kinds and CRDs.
  { name: 'kubebuilder:object:root', targets: ['type'], value: 'bool', help: 'the type is a Kind (or its List)' },
  {
    name: 'kubebuilder:resource',
    targets: ['type'],
    args: {
      path: { type: 'string', optional: true },
      shortName: { type: 'stringList', optional: true },
      categories: { type: 'stringList', optional: true },
      singular: { type: 'string', optional: true },
      scope: { type: 'string', optional: true },
    },
    help: 'plural, short names, categories, singular and scope of the CRD',
  },
  { name: 'kubebuilder:subresource:status', targets: ['type'], help: 'enables the /status subresource' },
  {
    name: 'kubebuilder:subresource:scale',
    targets: ['type'],
    args: {
      specpath: { type: 'string' },
      statuspath: { type: 'string' },
      selectorpath: { type: 'string', optional: true },
    },
    help: 'enables the /scale subresource',
  },
  { name: 'kubebuilder:storageversion', targets: ['type'], help: 'this version is the one stored in etcd' },
  { name: 'kubebuilder:unservedversion', targets: ['type'], help: 'this version is not served' },
  {
    name: 'kubebuilder:deprecatedversion',
    targets: ['type'],
    args: { warning: { type: 'string', optional: true } },
    help: 'this version is deprecated',
  },
  { name: 'kubebuilder:skipversion', targets: ['type'], help: 'leaves this version out of the CRD' },
  {
    name: 'kubebuilder:printcolumn',
    targets: ['type'],
    repeatable: true,
    args: {
      name: { type: 'string' },
      type: { type: 'string' },
      JSONPath: { type: 'string' },
      description: { type: 'string', optional: true },
      format: { type: 'string', optional: true },
      priority: { type: 'int', optional: true },
    },
    help: 'a column of `kubectl get`',
  },
  {
    name: 'kubebuilder:metadata',
    targets: ['type'],
    repeatable: true,
    args: { annotations: { type: 'stringList', optional: true }, labels: { type: 'stringList', optional: true } },
    help: 'annotations and labels of the CRD itself',
  },
  {
    name: 'kubebuilder:selectablefield',
    targets: ['type'],
    repeatable: true,
    args: { JSONPath: { type: 'string' } },
    help: 'a field usable in field selectors',
  },

  // Field and type annotations.
  { name: 'required', targets: ['field'], help: 'the field is required' },
  { name: 'optional', targets: ['field'], help: 'the field is optional' },
  { name: 'k8s:required', targets: ['field'], help: 'the field is required' },
  { name: 'k8s:optional', targets: ['field'], help: 'the field is optional' },
  { name: 'nullable', targets: fieldAndType, help: 'null is allowed' },
  { name: 'kubebuilder:default', targets: fieldAndType, value: 'any', help: 'the default value, e.g. {a,b} or {key: "v"}' },
  { name: 'default', targets: fieldAndType, value: 'json', help: 'the default value as JSON' },
  { name: 'kubebuilder:example', targets: fieldAndType, value: 'any', help: 'an example value' },
  { name: 'kubebuilder:title', targets: fieldAndType, value: 'string', help: 'the schema title' },
  {
    name: 'kubebuilder:externalDocs',
    targets: fieldAndType,
    args: { url: { type: 'string' }, description: { type: 'string', optional: true } },
    help: 'a link to external documentation',
  },
  { name: 'kubebuilder:validation:EmbeddedResource', targets: ['field'], help: 'an embedded object with apiVersion, kind and metadata' },
  { name: 'kubebuilder:validation:Schemaless', targets: ['field'], help: 'no schema is generated from the type' },
  { name: 'kubebuilder:pruning:PreserveUnknownFields', targets: fieldAndType, help: 'keeps fields the schema does not name' },
  { name: 'enum', targets: ['type'], help: 'the type is an enumeration of its literal values' },
  { name: 'k8s:enum', targets: ['type'], help: 'the type is an enumeration of its literal values' },
  { name: 'k8s:immutable', targets: ['field'], help: 'the value cannot change once set' },
  { name: 'kubebuilder:validation:ExactlyOneOf', targets: fieldAndType, value: 'stringList', repeatable: true, help: 'exactly one of these fields is set' },
  { name: 'kubebuilder:validation:AtMostOneOf', targets: fieldAndType, value: 'stringList', repeatable: true, help: 'at most one of these fields is set' },
  { name: 'kubebuilder:validation:AtLeastOneOf', targets: fieldAndType, value: 'stringList', repeatable: true, help: 'at least one of these fields is set' },
  { name: 'listType', targets: fieldAndType, value: 'string', help: 'atomic, set or map' },
  { name: 'listMapKey', targets: fieldAndType, value: 'string', repeatable: true, help: 'a key of a listType=map list' },
  { name: 'k8s:listType', targets: fieldAndType, value: 'string', help: 'atomic, set or map' },
  { name: 'k8s:listMapKey', targets: fieldAndType, value: 'string', repeatable: true, help: 'a key of a listType=map list' },
  { name: 'mapType', targets: fieldAndType, value: 'string', help: 'atomic or granular' },
  { name: 'structType', targets: fieldAndType, value: 'string', help: 'atomic or granular' },
];

for (const v of schemaValidations) {
  defs.push({ ...v, name: `kubebuilder:validation:${v.name}`, targets: fieldAndType });
  defs.push({ ...v, name: `kubebuilder:validation:items:${v.name}`, targets: fieldAndType, help: `array items: ${v.help}` });
}

/** All marker definitions by name. */
export const markerDefs: ReadonlyMap<string, MarkerDef> = new Map(defs.map((d) => [d.name, d]));

/** Names that mean the same: the `k8s:` and short spellings map to one canonical name. */
export const canonicalName: Readonly<Record<string, string>> = {
  required: 'kubebuilder:validation:Required',
  'k8s:required': 'kubebuilder:validation:Required',
  optional: 'kubebuilder:validation:Optional',
  'k8s:optional': 'kubebuilder:validation:Optional',
  'k8s:listType': 'listType',
  'k8s:listMapKey': 'listMapKey',
  'k8s:enum': 'enum',
  'kubebuilder:validation:XPreserveUnknownFields': 'kubebuilder:pruning:PreserveUnknownFields',
  'kubebuilder:validation:EmbeddedResource': 'kubebuilder:validation:XEmbeddedResource',
};
