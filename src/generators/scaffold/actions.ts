/**
 * The GitHub Actions the scaffolded workflows use, each pinned by the full commit SHA of a
 * release tag (a tag can be moved to other code; a commit cannot), with the tag written
 * beside it so Dependabot and readers see the version. The SHAs were read from the actions'
 * own repositories (`git rev-list -n1 <tag>`); Dependabot's github-actions updates bump SHA
 * and comment together.
 */
export const pinnedActions = {
  checkout: { repository: 'actions/checkout', commit: '3d3c42e5aac5ba805825da76410c181273ba90b1', tag: 'v7.0.1' },
  setupNode: { repository: 'actions/setup-node', commit: '820762786026740c76f36085b0efc47a31fe5020', tag: 'v7.0.0' },
  cache: { repository: 'actions/cache', commit: '27d5ce7f107fe9357f9df03efb73ab90386fccae', tag: 'v5.0.5' },
  uploadArtifact: { repository: 'actions/upload-artifact', commit: 'bbbca2ddaa5d8feaa63e36b76fdaad77386f024f', tag: 'v7.0.0' },
} as const;

export type PinnedAction = (typeof pinnedActions)[keyof typeof pinnedActions];

/** `owner/name@<sha>`, the value of a step's `uses:`. */
export function usesOf(action: PinnedAction): string {
  return `${action.repository}@${action.commit}`;
}
