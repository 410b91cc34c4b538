// The same synthetic API in TypeScript (an opgen project) and Go (a kubebuilder project):
// N kinds x M spec fields mixing scalars with limits, enums, lists, maps, nested structs
// and optional fields, so both generators walk comparable shapes and markers. With `builtins`,
// each spec also holds a pod template and resource requirements, as most operators' specs do.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const group = 'bench.example.com';

/** Field i of a spec: the same shape in both languages. */
function field(i) {
  const kinds = ['string', 'int', 'bool', 'enum', 'list', 'map', 'nested', 'nestedList', 'optionalString', 'quantity'];
  return { name: `field${i}`, shape: kinds[i % kinds.length] };
}

const cap = (s) => s[0].toUpperCase() + s.slice(1);

/**
 * With `cel`, the rules on every spec (the same markers in both languages): a plain one, one
 * iterating a bounded list, one iterating the unbounded list of parts, so opgen type-checks
 * and costs them (the last is costed from the request size: about 3 million of 10 million).
 */
export const celRules = [
  "self.field0.startsWith('a') || self.field1 > 2",
  'self.field4.all(t, t.size() <= 63)',
  "!has(self.field7) || self.field7.all(p, p.name != '' && (!has(p.weight) || p.weight >= 0))",
];
const celMarkers = (prefix) => celRules.map((rule) => `${prefix}+kubebuilder:validation:XValidation:rule="${rule}"`);

function tsKind(kind, fields, builtins, cel) {
  const lines = [
    ...(builtins ? [`import type { V1PodTemplateSpec, V1ResourceRequirements } from '@kubernetes/client-node';`] : []),
    `import type { Condition, ObjectMeta, Quantity, int32 } from '@opgen/runtime/api';`,
    ``,
    `/** Nested part of ${kind}. */`,
    `export interface ${kind}Part {`,
    `  /** +kubebuilder:validation:MinLength=1 */`,
    `  name: string;`,
    `  /** +kubebuilder:validation:Minimum=0 */`,
    `  weight?: int32;`,
    `  labels?: Record<string, string>;`,
    `}`,
    ``,
    `/** +kubebuilder:validation:Enum=Low;Medium;High */`,
    `export type ${kind}Level = string;`,
    ``,
    ...(cel ? [`/**`, ` * Desired state of ${kind}.`, ...celMarkers(' * '), ` */`] : [`/** Desired state of ${kind}. */`]),
    `export interface ${kind}Spec {`,
    ...(builtins ? [`  template?: V1PodTemplateSpec;`, `  resources?: V1ResourceRequirements;`] : []),
  ];
  for (const f of fields) {
    lines.push(`  /** The ${f.name} of the ${kind}. */`);
    switch (f.shape) {
      case 'string': lines.push(`  /**`, `   * +kubebuilder:validation:MaxLength=63`, `   * +kubebuilder:validation:Pattern=\`^[a-z]+$\``, `   */`, `  ${f.name}: string;`); break;
      case 'int': lines.push(`  /**`, `   * +kubebuilder:validation:Minimum=1`, `   * +kubebuilder:validation:Maximum=65535`, `   */`, `  ${f.name}: int32;`); break;
      case 'bool': lines.push(`  ${f.name}?: boolean;`); break;
      case 'enum': lines.push(`  ${f.name}?: ${kind}Level;`); break;
      case 'list': lines.push(`  /** +kubebuilder:validation:MaxItems=10 */`, `  ${f.name}?: string[];`); break;
      case 'map': lines.push(`  ${f.name}?: Record<string, string>;`); break;
      case 'nested': lines.push(`  ${f.name}?: ${kind}Part;`); break;
      case 'nestedList': lines.push(`  /**`, `   * +listType=map`, `   * +listMapKey=name`, `   */`, `  ${f.name}?: ${kind}Part[];`); break;
      case 'optionalString': lines.push(`  /** +kubebuilder:default=standard */`, `  ${f.name}?: string;`); break;
      case 'quantity': lines.push(`  ${f.name}?: Quantity;`); break;
    }
  }
  lines.push(
    `}`, ``,
    `/** Observed state of ${kind}. */`,
    `export interface ${kind}Status {`,
    `  /**`, `   * +listType=map`, `   * +listMapKey=type`, `   */`,
    `  conditions?: Condition[];`,
    `}`, ``,
    `/**`, ` * ${kind} is a synthetic kind.`, ` * +kubebuilder:object:root=true`, ` * +kubebuilder:subresource:status`, ` */`,
    `export interface ${kind} {`,
    `  apiVersion?: string;`, `  kind?: string;`, `  metadata?: ObjectMeta;`,
    `  spec: ${kind}Spec;`, `  status?: ${kind}Status;`,
    `}`, ``,
  );
  return lines.join('\n');
}

function goKind(kind, fields, builtins, cel) {
  const lines = [
    `package v1`, ``,
    `import (`, ...(builtins ? [`\tcorev1 "k8s.io/api/core/v1"`] : []), `\t"k8s.io/apimachinery/pkg/api/resource"`, `\tmetav1 "k8s.io/apimachinery/pkg/apis/meta/v1"`, `)`, ``,
    `// ${kind}Part is a nested part of ${kind}.`,
    `type ${kind}Part struct {`,
    `\t// +kubebuilder:validation:MinLength=1`, `\tName string \`json:"name"\``,
    `\t// +kubebuilder:validation:Minimum=0`, `\t// +optional`, `\tWeight *int32 \`json:"weight,omitempty"\``,
    `\t// +optional`, `\tLabels map[string]string \`json:"labels,omitempty"\``,
    `}`, ``,
    `// +kubebuilder:validation:Enum=Low;Medium;High`, `type ${kind}Level string`, ``,
    `// ${kind}Spec is the desired state of ${kind}.`,
    ...(cel ? celMarkers('// ') : []),
    `type ${kind}Spec struct {`,
    ...(builtins
      ? [`\t// +optional`, `\tTemplate corev1.PodTemplateSpec \`json:"template,omitempty"\``, `\t// +optional`, `\tResources corev1.ResourceRequirements \`json:"resources,omitempty"\``]
      : []),
  ];
  for (const f of fields) {
    const n = cap(f.name);
    lines.push(`\t// The ${f.name} of the ${kind}.`);
    switch (f.shape) {
      case 'string': lines.push(`\t// +kubebuilder:validation:MaxLength=63`, `\t// +kubebuilder:validation:Pattern=\`^[a-z]+$\``, `\t${n} string \`json:"${f.name}"\``); break;
      case 'int': lines.push(`\t// +kubebuilder:validation:Minimum=1`, `\t// +kubebuilder:validation:Maximum=65535`, `\t${n} int32 \`json:"${f.name}"\``); break;
      case 'bool': lines.push(`\t// +optional`, `\t${n} *bool \`json:"${f.name},omitempty"\``); break;
      case 'enum': lines.push(`\t// +optional`, `\t${n} ${kind}Level \`json:"${f.name},omitempty"\``); break;
      case 'list': lines.push(`\t// +kubebuilder:validation:MaxItems=10`, `\t// +optional`, `\t${n} []string \`json:"${f.name},omitempty"\``); break;
      case 'map': lines.push(`\t// +optional`, `\t${n} map[string]string \`json:"${f.name},omitempty"\``); break;
      case 'nested': lines.push(`\t// +optional`, `\t${n} *${kind}Part \`json:"${f.name},omitempty"\``); break;
      case 'nestedList': lines.push(`\t// +listType=map`, `\t// +listMapKey=name`, `\t// +optional`, `\t${n} []${kind}Part \`json:"${f.name},omitempty"\``); break;
      case 'optionalString': lines.push(`\t// +kubebuilder:default=standard`, `\t// +optional`, `\t${n} string \`json:"${f.name},omitempty"\``); break;
      case 'quantity': lines.push(`\t// +optional`, `\t${n} *resource.Quantity \`json:"${f.name},omitempty"\``); break;
    }
  }
  lines.push(
    `}`, ``,
    `// ${kind}Status is the observed state of ${kind}.`,
    `type ${kind}Status struct {`,
    `\t// +listType=map`, `\t// +listMapKey=type`, `\t// +optional`,
    `\tConditions []metav1.Condition \`json:"conditions,omitempty"\``,
    `}`, ``,
    `// ${kind} is a synthetic kind.`,
    `// +kubebuilder:object:root=true`, `// +kubebuilder:subresource:status`,
    `type ${kind} struct {`,
    `\tmetav1.TypeMeta   \`json:",inline"\``,
    `\tmetav1.ObjectMeta \`json:"metadata,omitempty"\``,
    `\tSpec   ${kind}Spec   \`json:"spec"\``,
    `\tStatus ${kind}Status \`json:"status,omitempty"\``,
    `}`, ``,
  );
  return lines.join('\n');
}

/** Writes the TypeScript project to `tsDir` and the Go module to `goDir`. */
export function writeSyntheticApi({ kinds, fields, tsDir, goDir, builtins = false, cel = false }) {
  if (cel && fields < 8) throw new Error('the CEL rules read field0 to field7: use --fields 8 or more');
  const names = Array.from({ length: kinds }, (_, i) => `Widget${String(i).padStart(3, '0')}`);
  const specFields = Array.from({ length: fields }, (_, i) => field(i));

  mkdirSync(join(tsDir, 'src/api/v1'), { recursive: true });
  writeFileSync(join(tsDir, 'PROJECT'), [
    'version: "3"', 'layout:', '- typescript.opgen.dev/v1', 'domain: example.com', 'projectName: bench', 'resources: []', '',
  ].join('\n'));
  writeFileSync(join(tsDir, 'src/api/v1/groupversion_info.ts'),
    `/**\n * Package v1 of the bench API.\n * +groupName=${group}\n */\nexport const groupVersion = { group: '${group}', version: 'v1' } as const;\n`);
  for (const k of names) writeFileSync(join(tsDir, `src/api/v1/${k.toLowerCase()}_types.ts`), tsKind(k, specFields, builtins, cel));

  mkdirSync(join(goDir, 'api/v1'), { recursive: true });
  writeFileSync(join(goDir, 'api/v1/groupversion_info.go'),
    `// Package v1 of the bench API.\n// +kubebuilder:object:generate=true\n// +groupName=${group}\npackage v1\n`);
  for (const k of names) writeFileSync(join(goDir, `api/v1/${k.toLowerCase()}_types.go`), goKind(k, specFields, builtins, cel));
}
