import { isMap, isScalar, isSeq, LineCounter, parseDocument, type Node, type YAMLMap } from 'yaml';
import { UserError } from '../errors.js';
import { validateDomain, validateKind, validatePlural, validateProjectName, validateVersion } from '../names/validate.js';
import { opgenLayout, sameGvk, type ProjectConfig, type Resource } from './model.js';

const projectKeys = ['version', 'cliVersion', 'layout', 'domain', 'projectName', 'multigroup', 'namespaced', 'resources'];
const resourceKeys = ['group', 'version', 'kind', 'domain', 'plural', 'api', 'path', 'controller'];

/**
 * Parses and checks the text of a PROJECT file. Every problem is a UserError located at
 * `file:line:column`, so a hand-edited file that went wrong says where.
 */
export function parseProject(text: string, file: string): ProjectConfig {
  const lineCounter = new LineCounter();
  const doc = parseDocument(text, { lineCounter, prettyErrors: false, uniqueKeys: true });
  const at = (node: Node | null | undefined) => locate(file, lineCounter, node?.range?.[0]);
  const syntax = doc.errors[0];
  if (syntax) {
    throw new UserError(`corrupt PROJECT file: ${firstLine(syntax.message)}`, locate(file, lineCounter, syntax.pos[0]));
  }
  const root = doc.contents;
  if (!isMap(root)) throw new UserError('corrupt PROJECT file: expected a mapping of keys to values', at(root));
  const fail = (node: Node | null | undefined, message: string): never => {
    throw new UserError(message, at(node));
  };
  const get = (map: YAMLMap, key: string) => map.get(key, true) as Node | undefined;
  const str = (map: YAMLMap, key: string, required: boolean): string | undefined => {
    const node = get(map, key);
    if (node === undefined) return required ? fail(map, `missing "${key}"`) : undefined;
    if (!isScalar(node) || typeof node.value !== 'string') return fail(node, `"${key}" must be a string`);
    return node.value;
  };
  const bool = (map: YAMLMap, key: string): boolean => {
    const node = get(map, key);
    if (node === undefined) return false;
    if (!isScalar(node) || typeof node.value !== 'boolean') return fail(node, `"${key}" must be true or false`);
    return node.value;
  };
  const checked = (node: Node | undefined, check: () => void) => {
    try {
      check();
    } catch (error) {
      if (error instanceof UserError) throw new UserError(error.message, at(node), error.hint);
      throw error;
    }
  };

  const version = get(root, 'version');
  if (!isScalar(version) || String(version.value) !== '3') {
    fail(version ?? root, `unsupported version ${version ? JSON.stringify(version.toJSON()) : '(missing)'}, opgen reads version "3"`);
  }
  const layout = get(root, 'layout');
  const layouts = isSeq(layout) ? layout.items.map((item) => (isScalar(item) ? item.value : undefined)) : [];
  if (!layouts.includes(opgenLayout)) {
    fail(layout ?? root, `layout ${layouts.length ? layouts.join(', ') : '(missing)'} is not an opgen project (expected ${opgenLayout})`);
  }
  const domain = str(root, 'domain', true)!;
  checked(get(root, 'domain'), () => validateDomain(domain));
  const projectName = str(root, 'projectName', true)!;
  checked(get(root, 'projectName'), () => validateProjectName(projectName));

  const resources: Resource[] = [];
  const list = get(root, 'resources');
  if (list !== undefined && !isSeq(list)) fail(list, '"resources" must be a list');
  for (const item of isSeq(list) ? list.items : []) {
    if (!isMap(item)) fail(item as Node, 'each resource must be a mapping');
    const entry = item as YAMLMap;
    const resource: Resource = {
      group: str(entry, 'group', true)!,
      version: str(entry, 'version', true)!,
      kind: str(entry, 'kind', true)!,
      // A built-in kind (kubebuilder's `path: k8s.io/api/...`) without a domain is in `core`, `apps`, ….
      domain: str(entry, 'domain', false) ?? (str(entry, 'path', false)?.startsWith('k8s.io/') ? '' : domain),
      plural: '',
      controller: bool(entry, 'controller'),
      extra: extraKeys(entry, resourceKeys),
    };
    checked(get(entry, 'version'), () => validateVersion(resource.version));
    checked(get(entry, 'kind'), () => validateKind(resource.kind));
    resource.plural = str(entry, 'plural', true)!;
    checked(get(entry, 'plural'), () => validatePlural(resource.plural));
    const path = str(entry, 'path', false);
    if (path !== undefined) resource.path = path;
    const api = get(entry, 'api');
    if (api !== undefined) {
      if (!isMap(api)) fail(api, '"api" must be a mapping');
      const crdVersion = str(api as YAMLMap, 'crdVersion', true);
      if (crdVersion !== 'v1') fail(get(api as YAMLMap, 'crdVersion'), `unsupported crdVersion "${crdVersion}", expected "v1"`);
      resource.api = { crdVersion: 'v1', namespaced: bool(api as YAMLMap, 'namespaced') };
    }
    if (resources.some((other) => sameGvk(other, resource))) {
      fail(entry, `${resource.group}/${resource.version} ${resource.kind} is listed twice`);
    }
    resources.push(resource);
  }

  const recordedVersion = str(root, 'cliVersion', false);
  if (recordedVersion !== undefined && !/^\d+\.\d+\.\d+(-[\w.]+)?$/.test(recordedVersion)) {
    fail(get(root, 'cliVersion'), `"cliVersion" must be an opgen version such as 0.1.0, not "${recordedVersion}"`);
  }
  return {
    ...(recordedVersion !== undefined ? { cliVersion: recordedVersion } : {}),
    domain,
    projectName,
    multigroup: bool(root, 'multigroup'),
    namespaced: bool(root, 'namespaced'),
    resources,
    extra: extraKeys(root, projectKeys),
  };
}

function extraKeys(map: YAMLMap, known: readonly string[]): Record<string, unknown> {
  const extra: Record<string, unknown> = {};
  for (const pair of map.items) {
    const key = isScalar(pair.key) ? String(pair.key.value) : String(pair.key);
    if (!known.includes(key)) extra[key] = (pair.value as Node | null)?.toJSON() ?? null;
  }
  return extra;
}

function locate(file: string, lineCounter: LineCounter, offset: number | undefined) {
  if (offset === undefined) return { file };
  const { line, col } = lineCounter.linePos(offset);
  return { file, line, column: col };
}

function firstLine(message: string): string {
  return message.split('\n')[0]!.replace(/ at line \d+, column \d+:?$/, '');
}
