import { join } from 'node:path';
import { buildCrds, type ParsedFiles, type WalkCache } from '../crd/build.js';
import type { AssembledCrd } from '../crd/assemble.js';
import { type Location, type UserError, UserErrors } from '../errors.js';
import type { JSONSchemaProps } from '../schema/types.js';
import { collectPackageMarkers } from '../markers/collect.js';
import type { ProjectConfig } from '../project/model.js';
import { cliVersion } from '../version.js';
import type { GeneratedFile } from '../writer/index.js';
import { crdPath, generateCrds } from './crd.js';
import { generateRbac } from './rbac.js';
import { generateSamples, type SampleInput } from './samples.js';
import { generateWebhooks } from './webhook.js';

/** The API files among the sources, by absolute path in path order, as buildCrds takes them. */
export function apiTexts(root: string, sources: ReadonlyMap<string, string>): Map<string, string> {
  return new Map(
    [...sources]
      .filter(([path]) => path.startsWith('src/api/'))
      .map(([path, text]): [string, string] => [join(root, path), text])
      .sort(([a], [b]) => a.localeCompare(b)),
  );
}

/** What `opgen manifests` generates from: the PROJECT record and the texts under src/. */
export interface ManifestInputs {
  project: ProjectConfig;
  /** Every TypeScript file under src/ (project-relative path `src/…` → text). */
  sources: ReadonlyMap<string, string>;
  /** Samples not to write: those already in config/samples/ and those the user dropped. */
  existingSamples: ReadonlySet<string>;
  /** The namespace the operator runs in (config/default's); `<project>-system` when not given. */
  operatorNamespace?: string;
  /** Problems found outside the sources (an import of a package the project does not depend on), reported first. */
  dependencyErrors?: readonly UserError[];
}

export interface ManifestOptions {
  /** `--max-desc-len`: shorten schema descriptions to this many characters (0 drops them). */
  maxDescriptionLength?: number;
  /** Parsed API files kept between runs (`--watch`): a file whose text is unchanged is not parsed again. */
  parsed?: ParsedFiles;
  /** Walked API files kept between runs (`--watch`): a file nothing changed under is not walked again. */
  walks?: WalkCache;
  /** The CRD files of the last run (`--watch`), reused for CRDs whose Kinds are unchanged. */
  crdFiles?: Map<string, GeneratedFile>;
}

/** What one run generates, and the served schemas the samples on disk must still satisfy. */
export interface GeneratedManifests {
  files: GeneratedFile[];
  samples: SampleInput[];
  /** The CRDs the files hold, and where each schema node was declared (for `--check`'s comparison with a release). */
  crds: AssembledCrd[];
  locations: WeakMap<JSONSchemaProps, Location>;
}

/**
 * CRDs, RBAC roles, webhook configurations and samples of the project at `root`. Pure: reads
 * nothing from disk.
 *
 * @throws UserErrors with every problem found in the API types and markers.
 */
export function generateManifests(root: string, inputs: ManifestInputs, options: ManifestOptions = {}): GeneratedManifests {
  const { project, sources } = inputs;
  const { crds, errors, unchanged, locations } = buildCrds(root, apiTexts(root, sources), {
    project,
    generatorVersion: cliVersion,
    maxDescriptionLength: options.maxDescriptionLength,
    parsed: options.parsed,
    walks: options.walks,
  });
  const packageMarkers = collectPackageMarkers(sources);
  const allErrors = [...(inputs.dependencyErrors ?? []), ...errors, ...packageMarkers.errors];
  if (allErrors.length) throw new UserErrors(allErrors);

  const samples = crds.flatMap((crd) =>
    crd.crd.spec.versions.filter((v) => v.served).map((v) => ({
      group: crd.group,
      version: v.name,
      kind: crd.kind,
      plural: crd.plural,
      schema: v.schema.openAPIV3Schema,
    })),
  );
  const kept = options.crdFiles;
  const crdFiles = crds.map((crd) => (unchanged.has(crd) && kept?.get(crdPath(crd))) || generateCrds([crd])[0]!);
  if (kept) {
    kept.clear();
    for (const file of crdFiles) kept.set(file.path, file);
  }
  const files = [
    ...crdFiles,
    ...generateRbac(packageMarkers.rbac, {
      namespaced: project.namespaced,
      clusterScoped: crds.filter((crd) => crd.crd.spec.scope === 'Cluster').map((crd) => `${crd.group}/${crd.plural}`),
    }),
    ...generateWebhooks(packageMarkers.webhooks, {
      operatorNamespace: inputs.operatorNamespace ?? `${project.projectName}-system`,
      namespaced: project.namespaced,
      ownGroups: new Set(crds.map((crd) => crd.group)),
    }),
    ...generateSamples(samples, inputs.existingSamples, { projectName: project.projectName, domain: project.domain }),
  ];
  return { files, samples, crds, locations };
}
