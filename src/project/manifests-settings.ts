import { UserError } from '../errors.js';
import { projectFileName, type ProjectConfig } from './model.js';

/** PROJECT's key for the flags of `opgen manifests` it remembers. */
const key = 'manifests';

/**
 * The `--max-desc-len` that applies: the flag when given, else the one PROJECT remembers
 * (`manifests: {maxDescLen: N}`), so `npm run manifests` and `npm test` keep generating the
 * CRDs the way the user last asked for, as kubebuilder's Makefile keeps `crd:maxDescLen`.
 * `project` is PROJECT with the flag recorded when it changes what is remembered.
 */
export function resolveMaxDescLen(project: ProjectConfig, flag: number | undefined): { value: number | undefined; project: ProjectConfig } {
  const stored = project.extra[key];
  if (stored !== undefined && (typeof stored !== 'object' || stored === null || Array.isArray(stored))) {
    throw new UserError(`"${key}" must be a mapping, e.g. {maxDescLen: 0}`, { file: projectFileName });
  }
  const settings = (stored ?? {}) as Record<string, unknown>;
  const remembered = settings.maxDescLen;
  if (remembered !== undefined && !(Number.isInteger(remembered) && (remembered as number) >= 0)) {
    throw new UserError(`"${key}.maxDescLen" must be a whole number, 0 or more`, { file: projectFileName });
  }
  if (flag === undefined || flag === remembered) return { value: remembered as number | undefined, project };
  return { value: flag, project: { ...project, extra: { ...project.extra, [key]: { ...settings, maxDescLen: flag } } } };
}
