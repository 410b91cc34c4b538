import type { JSONSchemaProps } from '../schema/types.js';
import type { GeneratedFile } from '../writer/index.js';
import { samplePath } from '../project/sample-path.js';
import { toYamlWithComments } from '../yaml.js';
import { exampleValue, type ValuePath } from './samples/example.js';

/** One served version of a Kind, as `opgen manifests` builds it. */
export interface SampleInput {
  /** The full API group, e.g. `storage.example.com`. */
  group: string;
  version: string;
  kind: string;
  plural: string;
  /** The version's `openAPIV3Schema`. */
  schema: JSONSchemaProps;
}

export interface SampleOptions {
  /** The PROJECT's `projectName`: the `app.kubernetes.io/name` label of every sample. */
  projectName: string;
  /** The PROJECT's `domain`, stripped from the group to name the file like kubebuilder. */
  domain: string;
}

/**
 * A sample custom resource for each Kind version that has none yet (`existingPaths` holds
 * the project-relative paths already on disk). Each is a valid object built from the
 * version's schema: named `<kind>-sample` with kubebuilder's labels, and with every
 * required field filled from its default, example, first enum value or the smallest value
 * its limits allow, so that `kubectl apply -k config/samples` passes the CRD's validation
 * (CEL rules aside). Samples belong to the user once written (ownership `once`).
 */
export function generateSamples(input: readonly SampleInput[], existingPaths: ReadonlySet<string>, options: SampleOptions): GeneratedFile[] {
  return input
    .map((resource) => ({ resource, path: samplePath(resource, options.domain) }))
    .filter(({ path }) => !existingPaths.has(path))
    .map(({ resource, path }) => ({
      path,
      content: sampleYaml(resource, options.projectName),
      ownership: 'once' as const,
    }));
}

const typeAndObjectMeta = new Set(['apiVersion', 'kind', 'metadata']);

/** The sample `generateSamples` writes for a kind version, as data. */
export function sampleObject(resource: SampleInput, projectName: string): Record<string, unknown> {
  return sample(resource, projectName).object;
}

/**
 * The sample's text: its object, and a `# TODO(user)` comment at every made-up value of a
 * required field (a string that only meets the schema, an empty object or list), so that
 * what passes validation but means nothing is plain to see.
 */
export function sampleYaml(resource: SampleInput, projectName: string): string {
  const { object, placeholders } = sample(resource, projectName);
  return toYamlWithComments(
    object,
    placeholders.map((path) => ({ path, text: `TODO(user): placeholder for the required ${fieldPath(path)}` })),
  );
}

function fieldPath(path: ValuePath): string {
  return path.map((segment, i) => (typeof segment === 'number' ? `[${segment}]` : i === 0 ? segment : `.${segment}`)).join('');
}

function sample(resource: SampleInput, projectName: string): { object: Record<string, unknown>; placeholders: ValuePath[] } {
  const { schema } = resource;
  const object: Record<string, unknown> = {
    apiVersion: `${resource.group}/${resource.version}`,
    kind: resource.kind,
    metadata: {
      labels: { 'app.kubernetes.io/name': projectName, 'app.kubernetes.io/managed-by': 'kustomize' },
      name: `${resource.kind.toLowerCase()}-sample`,
    },
  };
  const placeholders: ValuePath[] = [];
  // The spec is what a user edits, so it is always shown; other fields only when required.
  const required = (schema.required ?? []).filter((field) => !typeAndObjectMeta.has(field));
  for (const field of new Set([...(schema.properties?.spec ? ['spec'] : []), ...required])) {
    const fieldSchema = schema.properties?.[field];
    // An empty spec that nothing requires is no placeholder: there is nothing to fill in.
    const mark = (path: ValuePath) => {
      if (path.length > 1 || required.includes(field)) placeholders.push(path);
    };
    if (fieldSchema) object[field] = exampleValue(fieldSchema, 0, mark, [field]);
  }
  return { object, placeholders };
}
