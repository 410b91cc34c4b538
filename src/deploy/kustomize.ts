import { existsSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { UserError } from '../errors.js';
import { kubectl, kubectlError } from '../kubectl.js';

/** The Deployment whose first container is the manager (config/manager/manager.yaml). */
export const managerSelector = 'control-plane=controller-manager';

/** `kubectl kustomize <root>/<dir>`: the manifests of a config/ directory ('' when it holds none and `allowEmpty`). */
export function build(root: string, dir: string, options: { allowEmpty?: boolean } = {}): string {
  return kustomize(root, join(root, dir), dir, options.allowEmpty === true);
}

/**
 * config/default with the manager's image set to `image`: a kustomization in a temporary
 * directory takes config/default as its base and replaces the image of the manager
 * container, after checking that it is the one it expects. The user's config/ is never
 * written. The kustomization is JSON, which kustomize reads as YAML.
 */
export function buildWithImage(root: string, image: string): string {
  const overlay = realpathSync(mkdtempSync(join(tmpdir(), 'opgen-deploy-')));
  try {
    const kustomization = {
      apiVersion: 'kustomize.config.k8s.io/v1beta1',
      kind: 'Kustomization',
      resources: [relative(overlay, realpathSync(join(root, 'config/default')))],
      patches: [
        {
          target: { kind: 'Deployment', labelSelector: managerSelector },
          patch: JSON.stringify([
            { op: 'test', path: '/spec/template/spec/containers/0/name', value: 'manager' },
            { op: 'replace', path: '/spec/template/spec/containers/0/image', value: image },
          ]),
        },
      ],
    };
    writeFileSync(join(overlay, 'kustomization.yaml'), `${JSON.stringify(kustomization, null, 2)}\n`);
    const manifests = kustomize(root, overlay, 'config/default', false);
    if (!manifests.includes(image)) {
      throw new UserError(`config/default has no Deployment labelled ${managerSelector}: there is no manager to set the image of`);
    }
    return manifests;
  } finally {
    rmSync(overlay, { recursive: true, force: true });
  }
}

function kustomize(root: string, path: string, shown: string, allowEmpty: boolean): string {
  if (!existsSync(join(root, shown))) throw new UserError(`${shown} does not exist in ${root}: run this in the project's root, or pass --dir <project>`);
  const result = kubectl(['kustomize', path]);
  if (!result.ok) {
    const message = kubectlError(result.stderr);
    if (/containers\/0\/name failed/.test(message)) {
      throw new UserError(`the first container of the Deployment labelled ${managerSelector} must be the one named "manager", whose image is set`);
    }
    // kustomize nests its causes in one long line; a missing file is the one users meet most.
    const missing = /lstat (\S+): no such file or directory/.exec(message)?.[1];
    if (missing) {
      const file = relative(root, missing);
      const hint = file.startsWith('config/crd/bases') ? ': run opgen manifests first' : '';
      throw new UserError(`kubectl kustomize ${shown} failed: ${file} does not exist${hint}`);
    }
    throw new UserError(`kubectl kustomize ${shown} failed: ${message}`);
  }
  if (!result.stdout.trim() && !allowEmpty) throw new UserError(`${shown} holds no objects: add an API (opgen create api) and run opgen manifests`);
  return result.stdout;
}
