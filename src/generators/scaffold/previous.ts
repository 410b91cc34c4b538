import type { ProjectConfig } from '../../project/model.js';
import { apiFiles } from './api.js';

/**
 * What opgen scaffolded for the kinds PROJECT records, regenerated: each kind with the
 * kinds before it, as when it was created. A file on disk equal to this holds nothing of
 * the user's: `create api --force` may rewrite it and `delete api` may remove it.
 */
export function previousScaffold(project: ProjectConfig, boilerplate: string): Map<string, string> {
  const previous = new Map<string, string>();
  project.resources.forEach((resource, i) => {
    const earlier = { ...project, resources: project.resources.slice(0, i) };
    const files = apiFiles({ project: earlier, resource, withResource: Boolean(resource.api), withController: resource.controller, boilerplate });
    for (const file of files) if (!previous.has(file.path)) previous.set(file.path, file.content);
  });
  return previous;
}
