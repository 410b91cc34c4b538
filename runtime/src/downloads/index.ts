/**
 * `@opgen/runtime/downloads`: the prebuilt binaries opgen and its tests run, downloaded and
 * verified as setup-envtest does: the test control plane from controller-tools' envtest
 * release index and the Kubernetes release layout, kubectl from the latter, helm from its
 * release tarballs. Mirrors: `OPGEN_ENVTEST_INDEX`, `OPGEN_K8S_RELEASE_URL`,
 * `OPGEN_HELM_RELEASE_URL`.
 *
 * @example
 * import { ensureHelm } from '@opgen/runtime/downloads';
 *
 * const helm = await ensureHelm(); // $HELM, else a helm on PATH, else a verified download
 *
 * @module
 */
export { downloadControlPlane, isExecutable, ENVTEST_BINARIES, type ControlPlaneBinary, type DownloadControlPlaneOptions } from './controlplane.js';
export { DownloadError, downloadFile, fetchText, type Checksum, type DownloadOptions, type Downloaded } from './download.js';
export { ensureHelm, ensureKubectl, onPath, type ToolOptions } from './tools.js';
export { HELM_VERSION, KUBERNETES_VERSION } from './versions.js';
export {
  DEFAULT_ENVTEST_INDEX,
  DEFAULT_HELM_RELEASE_URL,
  DEFAULT_K8S_RELEASE_URL,
  envtestArchiveName,
  envtestArchivePath,
  helmArchivePath,
  helmArchiveUrl,
  hostPlatform,
  kubernetesBinaryUrl,
  opgenCacheRoot,
  releaseSources,
  setupEnvtestDir,
  type Platform,
  type ReleaseSources,
} from './platform.js';
export { extractFiles } from './tar.js';
export { formatBytes, progressReporter, type Progress, type ProgressSink } from './progress.js';
