import { spawnSync } from 'node:child_process';

/**
 * Paths with uncommitted changes in the git work tree holding `dir` (`git status
 * --porcelain`), or undefined when there is no git or no repository: upgrade works without
 * git and only asks it whether the user can review and undo what upgrade writes.
 */
export function uncommittedChanges(dir: string): string[] | undefined {
  const result = spawnSync('git', ['status', '--porcelain', '--untracked-files=all', '.'], { cwd: dir, encoding: 'utf8' });
  if (result.error || result.status !== 0) return undefined;
  return result.stdout
    .split('\n')
    .filter(Boolean)
    .map((line) => line.slice(3));
}
