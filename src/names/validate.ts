/**
 * Checks for the names a user gives opgen: each returns nothing when the name is fine and
 * throws a UserError that says what is wrong and what would be right.
 *
 * @module
 */
import { UserError } from '../errors.js';

const dns1123Label = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/;
const dns1035Label = /^[a-z]([-a-z0-9]*[a-z0-9])?$/;
const kubeVersion = /^v[1-9][0-9]*((alpha|beta)[1-9][0-9]*)?$/;
const pascalCase = /^[A-Z][A-Za-z0-9]*$/;

/** A DNS-1123 label (RFC 1123): what namespaces and project names must be. */
export function isDns1123Label(value: string): boolean {
  return value.length <= 63 && dns1123Label.test(value);
}

/** A DNS-1123 subdomain: dot-separated DNS-1123 labels, at most 253 characters. */
export function isDns1123Subdomain(value: string): boolean {
  return value.length <= 253 && value.split('.').every(isDns1123Label);
}

/** `--domain`: the suffix of every API group of the project, e.g. `example.com`. */
export function validateDomain(domain: string): void {
  if (!isDns1123Subdomain(domain)) {
    throw new UserError(
      `invalid domain "${domain}": must be a DNS-1123 subdomain`,
      undefined,
      'lower-case letters, digits, "-" and ".", e.g. example.com',
    );
  }
}

/**
 * The names kustomize derives from the project name that must stay DNS-1035/1123 labels
 * (at most 63 characters): the namespace and the metrics Service.
 */
const longestDerivedLabelSuffix = '-controller-manager-metrics-service';

/**
 * `--project-name`: a DNS-1123 label short enough for the object names derived from it.
 * `fromDirectory` says the name came from the directory, not the flag.
 */
export function validateProjectName(name: string, fromDirectory = false): void {
  const what = `invalid project name "${name}"${fromDirectory ? ' (the directory\'s name)' : ''}`;
  const flag = fromDirectory ? '; pass --project-name' : '';
  if (!isDns1123Label(name)) {
    throw new UserError(
      `${what}: must be a DNS-1123 label`,
      undefined,
      `lower-case letters, digits and "-", starting and ending with a letter or digit, e.g. memcached-operator${flag}`,
    );
  }
  const max = 63 - longestDerivedLabelSuffix.length;
  if (name.length > max) {
    throw new UserError(
      `${what}: ${name.length} characters, at most ${max} fit`,
      undefined,
      `the metrics Service "${name}${longestDerivedLabelSuffix}" must be at most 63 characters${flag}`,
    );
  }
}

/**
 * `--group`: the short group name, which the project domain completes (`storage` +
 * `example.com` → `storage.example.com`).
 */
export function validateGroup(group: string, domain: string): void {
  if (!isDns1123Subdomain(group)) {
    throw new UserError(
      `invalid group "${group}": must be a DNS-1123 subdomain`,
      undefined,
      'lower-case letters, digits and "-", e.g. storage',
    );
  }
  if (group === domain || group.endsWith(`.${domain}`)) {
    const short = group.slice(0, -domain.length - 1);
    throw new UserError(
      `invalid group "${group}": it already ends with the project domain "${domain}"`,
      undefined,
      short ? `pass --group ${short}; the domain is added to it` : 'pass the short group name; the domain is added to it',
    );
  }
  const full = `${group}.${domain}`;
  if (!isDns1123Subdomain(full)) {
    throw new UserError(
      `invalid group "${group}": with the project domain the API group "${full}" is longer than 253 characters`,
    );
  }
}

/** `--version`: a Kubernetes API version such as v1, v1alpha1 or v2beta3. */
export function validateVersion(version: string): void {
  if (!kubeVersion.test(version)) {
    throw new UserError(
      `invalid version "${version}": not a Kubernetes API version`,
      undefined,
      'v<major>, optionally followed by alpha<n> or beta<n>, e.g. v1, v1alpha1, v2beta3',
    );
  }
}

/**
 * `--kind`: PascalCase, and short enough that its lower-case form is a DNS-1035 label
 * (kubectl and the API server use it that way).
 */
export function validateKind(kind: string): void {
  if (!pascalCase.test(kind)) {
    throw new UserError(
      `invalid kind "${kind}": must be PascalCase`,
      undefined,
      'an upper-case letter followed by letters and digits, e.g. DemoVolume',
    );
  }
  if (kind.length > 63) {
    throw new UserError(`invalid kind "${kind}": ${kind.length} characters, at most 63 allowed`);
  }
  const module = reservedKinds.get(kind);
  if (module) {
    throw new UserError(
      `invalid kind "${kind}": the generated code imports ${kind} from ${module}, which the kind would shadow`,
      undefined,
      'choose another name',
    );
  }
}

/**
 * Names the scaffolded files import from @opgen/runtime: a kind of the same name would
 * shadow them there.
 */
const reservedKinds = new Map([
  ['ObjectMeta', '@opgen/runtime/api'],
  ['Condition', '@opgen/runtime/api'],
  ['List', '@opgen/runtime/api'],
  ['Manager', '@opgen/runtime'],
  ['Request', '@opgen/runtime'],
  ['ReconcileContext', '@opgen/runtime'],
  ['Result', '@opgen/runtime'],
]);

/** `--plural`: the resource name in URLs, a lower-case DNS-1035 label such as `demovolumes`. */
export function validatePlural(plural: string): void {
  if (plural.length > 63 || !dns1035Label.test(plural)) {
    throw new UserError(
      `invalid plural "${plural}": must be a lower-case DNS-1035 label`,
      undefined,
      'lower-case letters, digits and "-", starting with a letter, e.g. demovolumes',
    );
  }
}

/** `--owner`: one line of text that goes into a comment at the top of every source file. */
export function validateOwner(owner: string): void {
  if (/[\r\n]/.test(owner) || owner.includes('*/')) {
    throw new UserError(`invalid owner "${owner}": must be one line without "*/"`);
  }
}
