#!/usr/bin/env node
// kubebuilder's `make install`, `uninstall`, `deploy`, `undeploy` and `build-installer`, with
// nothing but Node.js and kubectl (its built-in kustomize and server-side apply): deploying
// the operator needs neither opgen nor a separate kustomize. The npm scripts call it:
//
//   npm run deploy -- --image <registry>/<name>:<tag>   (or IMG=<image> npm run deploy)
//   npm run undeploy
//   npm run crds:install / npm run crds:uninstall
//   npm run build-installer -- --image <image>          (writes dist/install.yaml)
//
// Cluster flags: --kubeconfig <file>, --context <name>; KUBECTL names the kubectl to run.
// The image is set in what kustomize builds, never in config/: the tree stays as committed.
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

const root = fileURLToPath(new URL('..', import.meta.url));
const kubectlBinary = process.env.KUBECTL || 'kubectl';
const installer = 'dist/install.yaml';
// The Deployment whose first container is the manager (config/manager/manager.yaml).
const managerSelector = 'control-plane=controller-manager';

/** A problem the user can fix: printed as one line, exit code 1. */
class Refusal extends Error {}

const commands = {
  'crds:install': (options) => {
    const manifests = build('config/crd');
    apply(manifests, reachableCluster('create', options), 'crds:install');
  },
  'crds:uninstall': (options) => {
    const manifests = build('config/crd');
    const cluster = reachableCluster('delete', options);
    awaitServed(manifests, cluster);
    remove(manifests, cluster);
  },
  deploy: (options) => {
    const manifests = buildWithImage(requireImage(options));
    apply(manifests, reachableCluster('create', options), 'deploy');
  },
  undeploy: (options) => {
    // Deletion goes by kind, namespace and name: whatever image was deployed, this finds it.
    // The CRDs go first, and with them every object of their kinds, while the manager still
    // runs to remove its finalizers from those objects; then the rest, the namespace last.
    const crds = build('config/crd', { allowEmpty: true });
    const manifests = build('config/default');
    const cluster = reachableCluster('delete', options);
    if (crds.trim()) {
      awaitServed(crds, cluster);
      remove(crds, cluster);
    }
    remove(manifests, cluster);
  },
  'build-installer': (options) => {
    const image = requireImage(options);
    const manifests = buildWithImage(image);
    mkdirSync(join(root, 'dist'), { recursive: true });
    writeFileSync(join(root, installer), manifests);
    console.log(`wrote ${installer} with image ${image}: kubectl apply --server-side -f ${installer}`);
  },
};

function main(argv) {
  const [command, ...rest] = argv;
  if (!Object.hasOwn(commands, command ?? '')) {
    throw new Refusal(`usage: deploy.mjs <${Object.keys(commands).join('|')}> [--image <image>] [--kubeconfig <file>] [--context <name>] [--force-conflicts]`);
  }
  let values;
  try {
    ({ values } = parseArgs({
      args: rest,
      options: {
        image: { type: 'string' },
        kubeconfig: { type: 'string' },
        context: { type: 'string' },
        'force-conflicts': { type: 'boolean' },
      },
      strict: true,
      allowPositionals: false,
    }));
  } catch (error) {
    throw new Refusal(error.message.split('\n')[0]);
  }
  commands[command](values);
}

/** The image from --image or $IMG, checked against the image reference grammar. */
function requireImage(options) {
  const image = options.image ?? process.env.IMG;
  if (!image) {
    throw new Refusal('no image to deploy: pass --image <registry>/<name>:<tag> or set IMG (e.g. IMG=ghcr.io/me/operator:0.1.0 npm run deploy)');
  }
  if (!isImageReference(image)) {
    throw new Refusal(`"${image}" is not an image reference: expected [<registry>/]<name>[:<tag>][@<digest>], lower case, e.g. ghcr.io/me/operator:0.1.0`);
  }
  return image;
}

const component = '[a-zA-Z0-9](?:[a-zA-Z0-9-]*[a-zA-Z0-9])?';
const registry = `(?:${component}(?:\\.${component})*|\\[[0-9a-fA-F:]+\\])(?::[0-9]+)?`;
const pathComponent = '[a-z0-9]+(?:(?:[._]|__|-+)[a-z0-9]+)*';
const imagePattern = new RegExp(
  `^(?:${registry}/)?${pathComponent}(?:/${pathComponent})*(?::[\\w][\\w.-]{0,127})?(?:@[A-Za-z][A-Za-z0-9]*(?:[-_+.][A-Za-z][A-Za-z0-9]*)*:[0-9a-fA-F]{32,})?$`,
);

function isImageReference(image) {
  return image.length <= 255 && imagePattern.test(image);
}

/**
 * The cluster kubectl would talk to, once it answered and allows `verb` on
 * CustomResourceDefinitions (what deploying and removing the operator takes): nothing is
 * applied to a cluster that cannot take all of it.
 */
function reachableCluster(verb, options) {
  const flags = [
    ...(options.kubeconfig ? [`--kubeconfig=${options.kubeconfig}`] : []),
    ...(options.context ? [`--context=${options.context}`] : []),
  ];
  const server = kubectl([...flags, 'config', 'view', '--minify', '--output=jsonpath={.clusters[0].cluster.server}']);
  const where = server.ok && server.stdout ? server.stdout : undefined;
  if (!where && !process.env.KUBERNETES_SERVICE_HOST) {
    const reason = server.ok || /current-context must exist/.test(server.stderr) ? 'kubectl has no current context' : firstLine(server.stderr).replace(/^error: /, '');
    throw new Refusal(`no cluster to talk to: ${reason} (set KUBECONFIG, pass --kubeconfig <file>, or run kubectl config use-context <name>)`);
  }
  const version = kubectl([...flags, 'version', '--output=json', '--request-timeout=15s']);
  if (!version.ok || !serverVersion(version.stdout)) {
    throw new Refusal(`cannot reach the Kubernetes API server at ${where ?? 'the in-cluster address'}: ${firstLine(version.stderr) || 'kubectl version failed'}`);
  }
  const allowed = kubectl([...flags, 'auth', 'can-i', verb, 'customresourcedefinitions.apiextensions.k8s.io', '--request-timeout=15s']);
  const answer = allowed.stdout.trim();
  if (answer !== 'yes') {
    const why = answer === 'no' ? '' : ` (${firstLine(allowed.stderr)})`;
    throw new Refusal(`your credentials for ${where ?? 'the cluster'} may not ${verb} CustomResourceDefinitions${why}: this needs a cluster administrator`);
  }
  return { flags, forceConflicts: options['force-conflicts'] === true };
}

function serverVersion(json) {
  try {
    return JSON.parse(json).serverVersion;
  } catch {
    return undefined;
  }
}

/** `kubectl kustomize <dir>`: the manifests of a config/ directory ('' when it holds none and that is allowed). */
function build(dir, { allowEmpty = false } = {}) {
  return kustomize(join(root, dir), dir, allowEmpty);
}

/**
 * config/default with the manager's image set to `image`: a kustomization in a temporary
 * directory takes config/default as its base and replaces the image of the manager
 * container, after checking that it is the one it expects. Its content is JSON, which
 * kustomize reads as YAML.
 */
function buildWithImage(image) {
  const overlay = realpathSync(mkdtempSync(join(tmpdir(), 'deploy-')));
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
    const manifests = kustomize(overlay, 'config/default');
    if (!manifests.includes(image)) {
      throw new Refusal(`config/default has no Deployment labelled ${managerSelector}: there is no manager to set the image of`);
    }
    return manifests;
  } finally {
    rmSync(overlay, { recursive: true, force: true });
  }
}

function kustomize(path, shown, allowEmpty = false) {
  const result = kubectl(['kustomize', path]);
  if (!result.ok) {
    const message = firstLine(result.stderr).replace(/^error: /, '');
    if (/containers\/0\/name failed/.test(message)) {
      throw new Refusal(`the first container of the Deployment labelled ${managerSelector} must be the one named "manager", whose image is set`);
    }
    // kustomize nests its causes in one long line; a missing file is the one users meet most.
    const missing = /lstat (\S+): no such file or directory/.exec(message)?.[1];
    if (missing) {
      const hint = relative(root, missing).startsWith('config/crd/bases') ? ': run npm run manifests first' : '';
      throw new Refusal(`kubectl kustomize ${shown} failed: ${relative(root, missing)} does not exist${hint}`);
    }
    throw new Refusal(`kubectl kustomize ${shown} failed: ${message}`);
  }
  if (!result.stdout.trim() && !allowEmpty) throw new Refusal(`${shown} holds no objects: add an API (opgen create api) and run npm run manifests`);
  return result.stdout;
}

/**
 * Server-side apply of everything in one kubectl call, as the project's field manager: no
 * last-applied annotation, so large CRDs fit. kubectl goes on past an object the API
 * server rejects; what it did apply, undeploy removes, since it builds the same objects.
 */
function apply(manifests, cluster, command) {
  const force = cluster.forceConflicts ? ['--force-conflicts'] : [];
  const result = kubectl(
    [...cluster.flags, 'apply', '--server-side', `--field-manager=${fieldManager()}`, ...force, '--filename=-'],
    { input: manifests, inherit: true },
  );
  if (!result.ok) {
    throw new Refusal(
      `${command} failed (kubectl apply, above): objects before the failure may be applied; fix the cause and run npm run ${command} again, or remove them with npm run ${command === 'deploy' ? 'undeploy' : 'crds:uninstall'}`,
    );
  }
}

/**
 * Lists the objects of each CRD in `manifests` that the cluster has, which waits until the
 * API server serves them: a CRD deleted sooner, while the storage of its objects still
 * initializes (just after it was created), stays Terminating for minutes, as the API
 * server's cleanup of its objects backs off.
 */
function awaitServed(manifests, cluster) {
  const present = kubectl([...cluster.flags, 'get', '--ignore-not-found', '--output=name', '--filename=-'], { input: manifests });
  for (const line of present.stdout.split('\n')) {
    const [resource, name] = line.split('/');
    if (resource?.startsWith('customresourcedefinition.') && name) {
      kubectl([...cluster.flags, 'get', name, '--all-namespaces', '--output=name', '--request-timeout=60s']);
    }
  }
}

function remove(manifests, cluster) {
  const result = kubectl([...cluster.flags, 'delete', '--ignore-not-found', '--filename=-'], { input: manifests, inherit: true });
  if (!result.ok) throw new Refusal('kubectl delete failed (above): run it again once the cause is fixed');
}

/** The name server-side apply records as the owner of the fields it sets: the package's. */
function fieldManager() {
  const { name } = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
  return name;
}

function kubectl(args, { input, inherit = false } = {}) {
  const result = spawnSync(kubectlBinary, args, {
    input,
    encoding: 'utf8',
    maxBuffer: 256 * 1024 * 1024,
    stdio: [input === undefined ? 'ignore' : 'pipe', inherit ? 'inherit' : 'pipe', inherit ? 'inherit' : 'pipe'],
  });
  if (result.error) {
    if (result.error.code === 'ENOENT') throw new Refusal(`${kubectlBinary} not found: install kubectl, or set KUBECTL to its path`);
    throw result.error;
  }
  return { ok: result.status === 0, stdout: result.stdout ?? '', stderr: result.stderr ?? '' };
}

function firstLine(text) {
  return (text ?? '').split('\n').find((line) => line.trim() !== '')?.trim() ?? '';
}

try {
  main(process.argv.slice(2));
} catch (error) {
  if (!(error instanceof Refusal)) throw error;
  console.error(`error: ${error.message}`);
  process.exitCode = 1;
}
