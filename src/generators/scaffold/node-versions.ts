/**
 * The Node.js versions a scaffolded project names, in one place: the oldest it supports
 * (package.json's `engines`, @opgen/runtime's own minimum) and the LTS line its image runs,
 * which CI also tests on.
 */
export const nodeVersions = {
  /** The oldest Node.js the project supports: package.json's `engines` and CI's oldest leg. */
  minimum: '20.19',
  /** The major the image (distroless nodejs24) runs, and every CI job besides the oldest leg. */
  image: 24,
} as const;
