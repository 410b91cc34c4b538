/**
 * Reads what `opgen import crd` imports: a file, an http(s) URL, stdin (`-`) or a CRD of the
 * current kubectl context; and the text's sha256, which PROJECT records.
 *
 * @module
 */
import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { isAbsolute, relative, resolve } from 'node:path';
import { UserError } from '../errors.js';
import { firstLine, kubectl, kubectlError, provideKubectl } from '../kubectl.js';

/** Where an import came from, as PROJECT records it. */
export type Origin = { file: string } | { url: string } | { cluster: string } | { stdin: true };

export interface Source {
  text: string;
  origin: Origin;
  /** Hex sha256 of the text. */
  sha256: string;
  /** The origin as messages and file headers name it. */
  name: string;
}

/** How long a download may take before it is given up. */
const downloadTimeoutMs = 60_000;

/**
 * The text `input` names: `-` is stdin, `http://` and `https://` are downloaded, anything
 * else is a file (relative to the current directory; recorded relative to `root`).
 */
export async function readSource(input: string, root: string, stdin: () => Promise<string>): Promise<Source> {
  if (input === '-') return sourceOf(await stdin(), { stdin: true }, 'stdin');
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(input)) return sourceOf(await download(input), { url: input }, input);
  const path = resolve(input);
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'EISDIR' || code === 'EACCES') throw new UserError(`cannot read ${input}: ${code === 'ENOENT' ? 'no such file' : code === 'EISDIR' ? 'a directory' : 'permission denied'}`);
    throw error;
  }
  const recorded = relative(root, path).split('\\').join('/');
  const file = recorded.startsWith('..') || isAbsolute(recorded) ? path : recorded;
  return sourceOf(text, { file }, input);
}

/** The CRD `name` of the current kubectl context, as YAML. */
export async function readClusterCrd(name: string): Promise<Source> {
  await provideKubectl();
  const result = kubectl(['get', 'customresourcedefinition', name, '-o', 'yaml'], { purpose: 'opgen import crd --from-cluster reads the CRD with kubectl' });
  if (!result.ok) throw new UserError(`kubectl get customresourcedefinition ${name}: ${firstLine(kubectlError(result.stderr))}`);
  return sourceOf(result.stdout, { cluster: name }, `cluster CRD ${name}`);
}

async function download(url: string): Promise<string> {
  if (!/^https?:\/\//i.test(url)) throw new UserError(`${url}: only http:// and https:// URLs can be imported`, undefined, 'download it and import the file');
  let response: Response;
  try {
    response = await fetch(url, { signal: AbortSignal.timeout(downloadTimeoutMs), redirect: 'follow' });
  } catch (error) {
    const cause = (error as { cause?: { code?: string; message?: string } }).cause;
    const why = (error as Error).name === 'TimeoutError' ? `no answer in ${downloadTimeoutMs / 1000} s` : (cause?.code ?? cause?.message ?? (error as Error).message);
    throw new UserError(`GET ${url}: ${why}`);
  }
  if (!response.ok) throw new UserError(`GET ${url}: HTTP ${response.status}${response.statusText ? ` ${response.statusText}` : ''}`);
  return response.text();
}

function sourceOf(text: string, origin: Origin, name: string): Source {
  return { text, origin, sha256: createHash('sha256').update(text).digest('hex'), name };
}
