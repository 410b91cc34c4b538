/**
 * A file a generator wants on disk. Generators return these and never touch the disk; the
 * writer decides what each becomes.
 */
export interface GeneratedFile {
  /** Path relative to the project root, with `/` separators. */
  path: string;
  content: string;
  /**
   * Who owns the file once written:
   * - `user`: scaffolded once, then the user's; rewritten only with `--force`.
   * - `once`: written if absent, otherwise left alone without complaint (samples).
   * - `generated`: always rewritten to match (CRDs, RBAC, and files the command updates).
   */
  ownership: 'user' | 'once' | 'generated';
  /** Mark the file executable. */
  executable?: boolean;
}

/**
 * What the writer does, or would do, with one file. DELETE removes it: only `opgen upgrade`
 * (a file the scaffold no longer has and the user never changed) and `opgen delete api` plan one.
 */
export type Action = 'CREATE' | 'UPDATE' | 'DELETE' | 'SKIP' | 'UNCHANGED' | 'CONFLICT';

export interface PlannedChange {
  path: string;
  action: Action;
  file: GeneratedFile;
}
