import { opgenLayout } from '../project/model.js';

/** Where the bundle goes in the package and which channels carry it. */
export interface BundleMetadata {
  packageName: string;
  channels: string[];
  defaultChannel?: string;
}

/** The registry+v1 annotations, in the order operator-sdk writes them. */
export function bundleAnnotations(meta: BundleMetadata): [string, string][] {
  const annotations: [string, string][] = [
    ['operators.operatorframework.io.bundle.mediatype.v1', 'registry+v1'],
    ['operators.operatorframework.io.bundle.manifests.v1', 'manifests/'],
    ['operators.operatorframework.io.bundle.metadata.v1', 'metadata/'],
    ['operators.operatorframework.io.bundle.package.v1', meta.packageName],
    ['operators.operatorframework.io.bundle.channels.v1', meta.channels.join(',')],
  ];
  if (meta.defaultChannel) annotations.push(['operators.operatorframework.io.bundle.channel.default.v1', meta.defaultChannel]);
  annotations.push(['operators.operatorframework.io.metrics.mediatype.v1', 'metrics+v1'], ['operators.operatorframework.io.metrics.project_layout', opgenLayout]);
  return annotations;
}

/** bundle/metadata/annotations.yaml: what OLM's registry reads to place the bundle. */
export function annotationsFile(meta: BundleMetadata): { annotations: Record<string, string> } {
  return { annotations: Object.fromEntries(bundleAnnotations(meta)) };
}

/**
 * bundle.Dockerfile, at the project root as operator-sdk writes it: an image of nothing but
 * the bundle, labelled with the same annotations (`docker build -f bundle.Dockerfile .`).
 */
export function bundleDockerfile(meta: BundleMetadata): string {
  const labels = bundleAnnotations(meta).map(([key, value]) => `LABEL ${key}=${value}`);
  return ['FROM scratch', '', '# Core bundle labels.', ...labels, '', '# Copy files to locations specified by labels.', 'COPY bundle/manifests /manifests/', 'COPY bundle/metadata /metadata/', ''].join('\n');
}
