import { UserError } from '../errors.js';
import { pluralOf } from '../names/plural.js';
import { validateDomain, validateKind, validatePlural, validateVersion } from '../names/validate.js';
import { projectFileName, type ProjectConfig, type Resource } from '../project/model.js';

/** The flags of `create api` (and `create webhook`) that name an external kind. */
export interface ExternalTargetOptions {
  group: string;
  version: string;
  kind: string;
  plural?: string;
  namespaced?: boolean;
  resource?: boolean;
  externalApiPath?: string;
  externalApiDomain?: string;
  externalApiModule?: string;
}

/**
 * The external kind kubebuilder's `--external-api-*` flags name: a kind of another project
 * (cert-manager's Certificate) whose controller this project has; recorded in PROJECT as
 * kubebuilder does (`external: true`, `domain`, `path`, `module`). In TypeScript its path is
 * the module exporting its handle: an npm module, or a file under src/ that opgen writes.
 */
export function externalTarget(project: ProjectConfig, options: ExternalTargetOptions): Resource | undefined {
  if (options.externalApiPath === undefined) {
    for (const [flag, given] of [['--external-api-domain', options.externalApiDomain], ['--external-api-module', options.externalApiModule]] as const) {
      if (given !== undefined) throw new UserError(`${flag} needs --external-api-path, the module of the external kind's handle`);
    }
    return undefined;
  }
  const path = options.externalApiPath;
  if (options.resource === true) {
    throw new UserError('--resource: an external kind\'s CRD belongs to its own project; opgen writes none', undefined, 'leave out --resource');
  }
  const local = path.startsWith('src/');
  if (local ? !/^src\/[\w./-]+\.ts$/.test(path) || path.split('/').includes('..') || path.startsWith('src/api/') : !/^(@[\w-][\w.-]*\/)?[\w-][\w.-]*(\/[\w-][\w.-]*)*$/.test(path)) {
    throw new UserError(
      `--external-api-path ${path}: expected an npm module (e.g. @acme/cert-manager-api) or a .ts file under src/ outside src/api (e.g. src/external/certificate.ts)`,
    );
  }
  const domain = options.externalApiDomain ?? project.domain;
  validateDomain(domain);
  validateVersion(options.version);
  validateKind(options.kind);
  const plural = options.plural ?? pluralOf(options.kind);
  validatePlural(plural);
  const namespaced = options.namespaced ?? true;
  if (project.namespaced && !namespaced) {
    throw new UserError(
      `--namespaced=false: ${options.kind} would be cluster-scoped, but this operator only has rights in its own namespace`,
      { file: projectFileName },
      'the project was made with opgen init --namespaced',
    );
  }
  return {
    group: options.group,
    version: options.version,
    kind: options.kind,
    domain,
    plural,
    path,
    controller: true,
    extra: { external: true, ...(namespaced ? {} : { namespaced: false }), ...(options.externalApiModule ? { module: options.externalApiModule } : {}) },
  };
}
