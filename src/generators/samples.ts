import type { JSONSchemaProps } from '../schema/types.js';
import type { GeneratedFile } from '../writer/index.js';
import { toYaml } from '../yaml.js';
import { samplePath } from '../project/sample-path.js';
import { exampleValue } from './samples/example.js';

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
      content: toYaml([sampleObject(resource, options.projectName)]),
      ownership: 'once' as const,
    }));
}

const typeAndObjectMeta = new Set(['apiVersion', 'kind', 'metadata']);

/** The sample `generateSamples` writes for a kind version, as data. */
export function sampleObject(resource: SampleInput, projectName: string): Record<string, unknown> {
  const { schema } = resource;
  const object: Record<string, unknown> = {
    apiVersion: `${resource.group}/${resource.version}`,
    kind: resource.kind,
    metadata: {
      labels: { 'app.kubernetes.io/name': projectName, 'app.kubernetes.io/managed-by': 'kustomize' },
      name: `${resource.kind.toLowerCase()}-sample`,
    },
  };
  // The spec is what a user edits, so it is always shown; other fields only when required.
  const required = (schema.required ?? []).filter((field) => !typeAndObjectMeta.has(field));
  for (const field of new Set([...(schema.properties?.spec ? ['spec'] : []), ...required])) {
    const fieldSchema = schema.properties?.[field];
    if (fieldSchema) object[field] = exampleValue(fieldSchema);
  }
  return object;
}
