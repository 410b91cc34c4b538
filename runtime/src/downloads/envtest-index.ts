import { parse } from 'yaml';
import { DownloadError, fetchText } from './download.js';

/** One tarball of controller-tools' envtest-releases.yaml. */
export interface EnvtestArchive {
  /** Absolute URL (a relative selfLink is resolved against the index's URL). */
  url: string;
  /** sha512, lower-case hex. */
  sha512: string;
}

/**
 * Finds `archive` under `v<version>` in the index at `indexUrl`, the format controller-tools
 * publishes and setup-envtest reads:
 *
 * ```yaml
 * releases:
 *   v1.36.3:
 *     envtest-v1.36.3-linux-amd64.tar.gz:
 *       hash: <sha512 hex>
 *       selfLink: https://github.com/kubernetes-sigs/controller-tools/releases/download/envtest-v1.36.3/envtest-v1.36.3-linux-amd64.tar.gz
 * ```
 */
export async function findEnvtestArchive(indexUrl: string, version: string, archive: string): Promise<EnvtestArchive> {
  const text = await fetchText(indexUrl);
  let index: unknown;
  try {
    index = parse(text);
  } catch (error) {
    throw new Error(`${indexUrl} is not YAML: ${(error as Error).message.split('\n')[0]}`);
  }
  const releases = (index as { releases?: Record<string, Record<string, { hash?: unknown; selfLink?: unknown }>> } | null)?.releases;
  if (!releases || typeof releases !== 'object') {
    throw new Error(`${indexUrl} is not an envtest release index: it has no releases map (controller-tools' envtest-releases.yaml format)`);
  }
  const entry = releases[`v${version}`]?.[archive];
  if (!entry) {
    // Not this source's to give: a mirror may lag behind, and a Go build can still make them.
    throw new DownloadError(`${indexUrl} lists no ${archive} under v${version}`, indexUrl, 'unreachable');
  }
  if (typeof entry.hash !== 'string' || !/^[0-9a-fA-F]{128}$/.test(entry.hash) || typeof entry.selfLink !== 'string') {
    throw new Error(`${indexUrl}: ${archive} under v${version} needs a hash (sha512, 128 hex digits) and a selfLink`);
  }
  return { url: new URL(entry.selfLink, indexUrl).href, sha512: entry.hash.toLowerCase() };
}
