import { cp, mkdir, mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The repository's root. */
export const repo = fileURLToPath(new URL('../../', import.meta.url));

/**
 * A copy of a seed example's config/, PROJECT and package.json in a fresh temporary
 * directory named after it: what `opgen bundle` reads. Remove it with `cleanUp`.
 */
export async function copyExample(name: string): Promise<string> {
  const dir = join(await mkdtemp(join(tmpdir(), 'opgen-bundle-')), name);
  await mkdir(dir);
  for (const entry of ['config', 'PROJECT', 'package.json']) await cp(join(repo, 'examples', name, entry), join(dir, entry), { recursive: true });
  return dir;
}

/** The path of the olm-validate binary (operator-framework/api's validators) built by hack/olm-validate/build.sh. */
export function olmValidateScript(): string {
  return join(repo, 'hack/olm-validate/build.sh');
}
