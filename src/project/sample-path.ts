/**
 * `config/samples/<group>_<version>_<kind>.yaml`, kubebuilder's name for a sample: the
 * short group (the full group without `.<domain>`), the version and the lower-case kind,
 * e.g. `storage_v1_demovolume.yaml`; `<version>_<kind>.yaml` when the group is the domain.
 */
export function samplePath(resource: { group: string; version: string; kind: string }, domain: string): string {
  const suffix = `.${domain}`;
  const group = resource.group === domain ? '' : resource.group.endsWith(suffix) ? resource.group.slice(0, -suffix.length) : resource.group;
  const name = [group, resource.version, resource.kind.toLowerCase()].filter(Boolean).join('_');
  return `config/samples/${name}.yaml`;
}
