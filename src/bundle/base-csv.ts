import { join } from 'node:path';
import { UserError, UserErrors } from '../errors.js';
import { parseLocated, type LocatedDocument } from './locate.js';
import { displayName } from './owned.js';
import { readIfExists } from '../read-if-exists.js';

/** The CSV's API version and kind. */
export const csvApiVersion = 'operators.coreos.com/v1alpha1';

/** OLM's four install modes, in the order OLM lists them. */
export const installModeTypes = ['OwnNamespace', 'SingleNamespace', 'MultiNamespace', 'AllNamespaces'] as const;

/** A ClusterServiceVersion as plain data. */
export interface Csv {
  apiVersion: string;
  kind: string;
  metadata: { name?: string; namespace?: string; annotations?: Record<string, string>; [field: string]: unknown };
  spec: Record<string, unknown>;
}

/**
 * Where the project keeps the CSV fields people write (description, icon, maintainers,
 * install modes, owned kinds' display names and descriptors...). `opgen bundle` writes it once
 * and after that only reads it: every regeneration keeps what was edited there.
 */
export function baseCsvPath(projectName: string): string {
  return `config/manifests/bases/${projectName}.clusterserviceversion.yaml`;
}

/** What the project says about itself, for the first base CSV. */
export interface ProjectFacts {
  projectName: string;
  domain: string;
  description?: string;
}

/**
 * The base CSV `opgen bundle` writes when there is none: operator-sdk's defaults (every
 * install mode but MultiNamespace, Basic Install, alpha maturity), described from package.json.
 */
export function initialBaseCsv(project: ProjectFacts): Csv {
  return {
    apiVersion: csvApiVersion,
    kind: 'ClusterServiceVersion',
    metadata: { name: `${project.projectName}.v0.0.0`, annotations: { capabilities: 'Basic Install' } },
    spec: {
      displayName: displayName(project.projectName.replace(/-(\w)/g, (_, c: string) => c.toUpperCase())),
      description: project.description ?? '',
      keywords: [project.projectName],
      maturity: 'alpha',
      provider: { name: project.domain },
      installModes: installModeTypes.map((type) => ({ type, supported: type !== 'MultiNamespace' })),
      customresourcedefinitions: {},
    },
  };
}

/** The base CSV at `path` under `root`, or undefined when there is none; a malformed one is a located error. */
export async function readBaseCsv(root: string, path: string): Promise<Csv | undefined> {
  const text = await readIfExists(join(root, path));
  if (text === undefined) return undefined;
  const docs = parseLocated(text, path);
  if (docs.length !== 1) throw new UserError(`holds ${docs.length} YAML documents; a base CSV is one ClusterServiceVersion`, { file: path, line: 1 });
  const problems = checkCsvShape(docs[0]!);
  if (problems.length) throw new UserErrors(problems);
  return docs[0]!.value as Csv;
}

/**
 * The shape every CSV needs before its fields can be read: the kind, a spec, and well-formed
 * install modes, annotations and owned kinds. Each problem is located.
 */
export function checkCsvShape(doc: LocatedDocument): UserError[] {
  const problems: UserError[] = [];
  const at = (path: (string | number)[], message: string) => problems.push(new UserError(message, { file: doc.file, line: doc.lineOf(path) }));
  const csv = doc.value as Partial<Csv> | null;
  if (!isMap(csv)) {
    at([], 'is not a YAML mapping; a CSV is a ClusterServiceVersion object');
    return problems;
  }
  if (csv.apiVersion !== csvApiVersion) at(['apiVersion'], `apiVersion must be ${csvApiVersion}, got ${JSON.stringify(csv.apiVersion)}`);
  if (csv.kind !== 'ClusterServiceVersion') at(['kind'], `kind must be ClusterServiceVersion, got ${JSON.stringify(csv.kind)}`);
  if (csv.metadata !== undefined && !isMap(csv.metadata)) at(['metadata'], 'metadata must be a mapping');
  const annotations = isMap(csv.metadata) ? csv.metadata.annotations : undefined;
  if (annotations !== undefined && (!isMap(annotations) || Object.values(annotations).some((v) => typeof v !== 'string'))) {
    at(['metadata', 'annotations'], 'metadata.annotations must map names to strings');
  }
  if (!isMap(csv.spec)) {
    at(['spec'], 'spec must be a mapping');
    return problems;
  }
  for (const field of ['displayName', 'description', 'version', 'maturity', 'minKubeVersion', 'replaces'] as const) {
    const value = csv.spec[field];
    if (value !== undefined && value !== null && typeof value !== 'string') at(['spec', field], `spec.${field} must be a string`);
  }
  const modes = csv.spec.installModes;
  if (modes !== undefined) {
    if (!Array.isArray(modes)) at(['spec', 'installModes'], 'spec.installModes must be a list of {type, supported}');
    else {
      modes.forEach((mode: unknown, i) => {
        const m = mode as { type?: unknown; supported?: unknown } | null;
        if (!isMap(m) || !installModeTypes.includes(m.type as never)) {
          at(['spec', 'installModes', i], `spec.installModes[${i}].type must be one of ${installModeTypes.join(', ')}`);
        } else if (typeof m.supported !== 'boolean') at(['spec', 'installModes', i], `spec.installModes[${i}].supported must be true or false`);
      });
    }
  }
  const crds = csv.spec.customresourcedefinitions;
  if (crds !== undefined && crds !== null) {
    const owned = isMap(crds) ? crds.owned : undefined;
    if (!isMap(crds)) at(['spec', 'customresourcedefinitions'], 'spec.customresourcedefinitions must be a mapping');
    else if (owned !== undefined && owned !== null && !Array.isArray(owned)) at(['spec', 'customresourcedefinitions', 'owned'], 'spec.customresourcedefinitions.owned must be a list');
    else if (Array.isArray(owned)) {
      owned.forEach((entry: unknown, i) => {
        const e = entry as Record<string, unknown> | null;
        if (!isMap(e) || typeof e.name !== 'string' || typeof e.version !== 'string' || typeof e.kind !== 'string') {
          at(['spec', 'customresourcedefinitions', 'owned', i], `spec.customresourcedefinitions.owned[${i}] needs name, version and kind`);
        }
      });
    }
  }
  return problems;
}

function isMap(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
