import { join } from 'node:path';
import { isMap, isScalar, isSeq, parseDocument } from 'yaml';
import { samplePath } from './sample-path.js';
import { fullGroup, type ProjectConfig } from './model.js';
import { readIfExists } from '../read-if-exists.js';

const kustomization = 'config/samples/kustomization.yaml';

/**
 * The samples the user deleted on purpose: those of PROJECT's kinds that are neither on
 * disk nor listed in config/samples/kustomization.yaml. `create api` lists each sample it
 * writes there, and kustomize fails on a listed file that is gone, so taking a sample out
 * of the kustomization is how a user says "no sample for this kind"; the kustomization is
 * the record. `opgen manifests` does not write those again, and `--check` does not call
 * them stale. Without the kustomization nothing counts as dropped.
 */
export async function droppedSamples(root: string, project: ProjectConfig, onDisk: ReadonlySet<string>): Promise<Set<string>> {
  const text = await readIfExists(join(root, kustomization));
  if (text === undefined) return new Set();
  const doc = parseDocument(text);
  const resources = isMap(doc.contents) ? doc.contents.get('resources', true) : undefined;
  const listed = new Set(
    isSeq(resources) ? resources.items.flatMap((item) => (isScalar(item) ? [`config/samples/${String(item.value)}`] : [])) : [],
  );
  const dropped = project.resources
    .filter((resource) => resource.api)
    .map((resource) => samplePath({ group: fullGroup(resource), version: resource.version, kind: resource.kind }, project.domain))
    .filter((path) => !onDisk.has(path) && !listed.has(path));
  return new Set(dropped);
}
