import { chmod } from 'node:fs/promises';
import { DownloadError, downloadFile, fetchText, type Downloaded } from './download.js';
import type { ProgressSink } from './progress.js';

/**
 * Downloads one file whose digest is published beside it (`<url>.sha256` for Kubernetes'
 * binaries, `<url>.sha256sum` for helm's tarballs: the hex digest, maybe followed by the
 * file's name) to `dest`, verified, as an executable when `executable` is set.
 */
export async function downloadWithSumFile(
  url: string,
  sumSuffix: '.sha256' | '.sha256sum',
  dest: string,
  options: { executable?: boolean; progress?: ProgressSink } = {},
): Promise<Downloaded> {
  const sumUrl = `${url}${sumSuffix}`;
  const hex = (await fetchText(sumUrl)).trim().split(/\s+/)[0] ?? '';
  if (!/^[0-9a-fA-F]{64}$/.test(hex)) {
    throw new DownloadError(`${sumUrl} holds no sha256 (64 hex digits) but ${JSON.stringify(hex.slice(0, 80))}`, sumUrl, 'checksum');
  }
  const result = await downloadFile(url, dest, { checksum: { algorithm: 'sha256', hex: hex.toLowerCase() }, progress: options.progress });
  if (options.executable) await chmod(dest, 0o755);
  return result;
}
