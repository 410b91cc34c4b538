/**
 * The repository's own .gitignore with the lines of opgen's that it lacks appended, as
 * kubebuilder's `init` does in a repository that already has one: nothing of the user's
 * is removed or reordered. Returns `existing` unchanged when it already has every pattern.
 */
export function mergeGitignore(existing: string, ours: string): string {
  const present = new Set(existing.split('\n').map((line) => line.trim()));
  const missing = ours.split('\n').filter((line) => {
    const pattern = line.trim();
    return pattern !== '' && !pattern.startsWith('#') && !present.has(pattern);
  });
  if (missing.length === 0) return existing;
  const separator = existing === '' || existing.endsWith('\n\n') ? '' : existing.endsWith('\n') ? '\n' : '\n\n';
  return `${existing}${separator}# Added by opgen init\n${missing.join('\n')}\n`;
}
