import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { copyFixture, opgen } from './run.js';

// `opgen manifests --check` against the released API: one fixture API evolved edit by edit,
// each step checked against the CRDs of the step before, through the real CLI.

const types = 'src/api/v1/widget_types.ts';
const dirs: string[] = [];
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'opgen-compat-'));
  dirs.push(dir);
  return dir;
}

/** Replaces `from` by `to` in `file`; a `from` that is not there fails the test rather than testing nothing. */
function replace(dir: string, file: string, from: string, to: string): void {
  const path = join(dir, file);
  const text = readFileSync(path, 'utf8');
  if (!text.includes(from)) throw new Error(`${file} has no ${JSON.stringify(from)}`);
  writeFileSync(path, text.replace(from, to));
}

/** 1-based line of the first line of `file` that contains `text`. */
function lineOf(dir: string, file: string, text: string): number {
  const index = readFileSync(join(dir, file), 'utf8').split('\n').findIndex((line) => line.includes(text));
  if (index < 0) throw new Error(`${file} has no ${JSON.stringify(text)}`);
  return index + 1;
}

function copyVersion(dir: string, from: string, to: string): void {
  cpSync(join(dir, 'src/api', from), join(dir, 'src/api', to), { recursive: true });
  replace(dir, `src/api/${to}/groupversion_info.ts`, `version: '${from}'`, `version: '${to}'`);
}

interface Step {
  name: string;
  edit: (dir: string) => void;
  /** Breaking rules expected, each with the text of the line (in `file`, default the v1 types) its error points at. */
  breaking?: [rule: string, at: string, file?: string][];
  compatible?: string[];
}

const r = (from: string, to: string, file = types) => (dir: string) => replace(dir, file, from, to);
const widgetRule = (rule: string, extra = '') => `\n * +kubebuilder:validation:XValidation:rule="${rule}",message="checked"${extra}\n */\nexport interface WidgetSpec {`;

const steps: Step[] = [
  { name: 'add an optional field', edit: r('  /** count of things. */', '  /** color of the widget. */\n  color?: string;\n\n  /** count of things. */'), compatible: ['field-added'] },
  { name: 'remove a field', edit: r('  /** legacy setting, to be removed. */\n  legacy?: string;\n', ''), breaking: [['field-removed', 'spec: WidgetSpec']] },
  { name: 'change a type', edit: r('count?: int32;', 'count?: string;'), breaking: [['type-changed', 'count?: string']] },
  { name: 'remove an enum value', edit: r("mode?: 'Fast' | 'Slow';", "mode?: 'Fast';"), breaking: [['enum-restricted', 'mode?:']] },
  { name: 'add an enum value', edit: r("mode?: 'Fast';", "mode?: 'Fast' | 'Medium';"), compatible: ['enum-extended'] },
  { name: 'make a field required', edit: r('notes?: string;', 'notes: string;'), breaking: [['required-added', 'notes: string']] },
  { name: 'make a field optional', edit: r('*/\n  name: string;', '*/\n  name?: string;'), compatible: ['required-removed'] },
  { name: 'raise a minimum', edit: r('@minimum 1', '@minimum 2'), breaking: [['minimum-tightened', 'replicas?:']] },
  { name: 'raise a maximum', edit: r('@maximum 10', '@maximum 20'), compatible: ['bound-loosened'] },
  { name: 'lower a maximum', edit: r('@maximum 20', '@maximum 15'), breaking: [['maximum-tightened', 'replicas?:']] },
  { name: 'lower maxLength', edit: r('@maxLength 63', '@maxLength 40'), breaking: [['max-length-tightened', 'name?: string']] },
  { name: 'add minLength', edit: r('  /** email of the owner. */', '  /**\n   * email of the owner.\n   * @minLength 3\n   */'), breaking: [['min-length-tightened', 'email?:']] },
  { name: 'lower maxItems', edit: r('@maxItems 5', '@maxItems 3'), breaking: [['max-items-tightened', 'tags?:']] },
  { name: 'add minItems', edit: r('@maxItems 3', '@maxItems 3\n   * @minItems 1'), breaking: [['min-items-tightened', 'tags?:']] },
  { name: 'change a pattern', edit: r('@pattern ^[a-z]+$', '@pattern ^[a-z0-9]+$'), breaking: [['pattern-changed', 'tier?:']] },
  { name: 'drop a pattern', edit: r('\n   * @pattern ^[a-z0-9]+$', ''), compatible: ['pattern-removed'] },
  { name: 'add a format', edit: r('@minLength 3', '@minLength 3\n   * @format email'), breaking: [['format-changed', 'email?:']] },
  { name: 'change a default', edit: r('@default "standard"', '@default "basic"'), breaking: [['default-changed', 'plan?:']] },
  { name: 'default an existing field', edit: r('  /** weight of the widget. */', '  /**\n   * weight of the widget.\n   * @default 1\n   */'), breaking: [['default-changed', 'weight?:']] },
  { name: 'add a CEL rule', edit: r(' */\nexport interface WidgetSpec {', widgetRule("self.name != 'forbidden'")), breaking: [['validation-rule-added', 'spec: WidgetSpec']] },
  {
    name: 'add a ratcheting CEL rule (optionalOldSelf)',
    edit: r(' */\nexport interface WidgetSpec {', widgetRule('!oldSelf.hasValue() || self.plan == oldSelf.value().plan', ',optionalOldSelf=true')),
    compatible: ['validation-rule-ratcheted'],
  },
  { name: 'drop a CEL rule', edit: r(`\n * +kubebuilder:validation:XValidation:rule="self.name != 'forbidden'",message="checked"`, ''), compatible: ['validation-rule-removed'] },
  { name: 'add maxProperties', edit: r('  /** labels of the widget. */', '  /**\n   * labels of the widget.\n   * @maxProperties 10\n   */'), breaking: [['max-properties-tightened', 'labels?:']] },
  { name: 'add minProperties', edit: r('@maxProperties 10', '@maxProperties 10\n   * @minProperties 1'), breaking: [['min-properties-tightened', 'labels?:']] },
  { name: 'make a list a set', edit: r('@minItems 1', '@minItems 1\n   * +listType=set'), breaking: [['list-type-changed', 'tags?:']] },
  { name: 'make a map atomic', edit: r('@minProperties 1', '@minProperties 1\n   * +mapType=atomic'), breaking: [['map-type-changed', 'labels?:']] },
  { name: 'stop keeping unknown fields', edit: r('\n   * +kubebuilder:pruning:PreserveUnknownFields', ''), breaking: [['preserve-unknown-fields-removed', 'settings?:']] },
  { name: 'add multipleOf', edit: r('@default 1', '@default 1\n   * @multipleOf 1'), breaking: [['multiple-of-changed', 'weight?:']] },
  { name: 'accept null', edit: r('color?: string;', 'color?: string | null;'), compatible: ['nullable-added'] },
  { name: 'refuse null', edit: r('color?: string | null;', 'color?: string;'), breaking: [['nullable-removed', 'color?:']] },
  {
    name: 'add a kind',
    edit: (dir) =>
      writeFileSync(
        join(dir, 'src/api/v1/gadget_types.ts'),
        "import { defineKind, type List, type ObjectMeta } from '@opgen/runtime/api';\nimport { groupVersion } from './groupversion_info.js';\n\n/**\n * Gadget goes with a widget.\n * +kubebuilder:object:root=true\n */\nexport interface Gadget {\n  apiVersion?: string;\n  kind?: string;\n  metadata?: ObjectMeta;\n  spec?: { size?: string };\n}\n\n/**\n * GadgetList is a list of Gadget objects.\n * +kubebuilder:object:root=true\n */\nexport interface GadgetList extends List<Gadget> {}\n\nexport const Gadget = defineKind<Gadget>({ ...groupVersion, kind: 'Gadget', plural: 'gadgets', namespaced: true });\n",
      ),
    compatible: ['kind-added'],
  },
  {
    name: 'remove a kind',
    edit: (dir) => {
      rmSync(join(dir, 'src/api/v1/gadget_types.ts'));
      rmSync(join(dir, 'config/crd/bases/shop.example.com_gadgets.yaml'));
    },
    breaking: [['kind-removed', '']] },
  {
    name: 'change the scope',
    edit: (dir) => {
      replace(dir, types, ' * +kubebuilder:subresource:status', ' * +kubebuilder:subresource:status\n * +kubebuilder:resource:scope=Cluster');
      replace(dir, types, 'namespaced: true', 'namespaced: false');
    },
    breaking: [['scope-changed', 'export interface Widget {']],
  },
  {
    name: 'add v2 as the storage version',
    edit: (dir) => {
      copyVersion(dir, 'v1', 'v2');
      replace(dir, 'src/api/v2/widget_types.ts', ' * +kubebuilder:subresource:status', ' * +kubebuilder:subresource:status\n * +kubebuilder:storageversion');
    },
    compatible: ['version-added', 'storage-version-changed'],
  },
  { name: 'stop serving v1', edit: r(' * +kubebuilder:subresource:status', ' * +kubebuilder:subresource:status\n * +kubebuilder:unservedversion'), breaking: [['version-unserved', 'export interface Widget {']] },
  { name: 'remove v1 once v2 is stored', edit: (dir) => rmSync(join(dir, 'src/api/v1'), { recursive: true }), breaking: [['version-removed', 'export interface Widget {', 'src/api/v2/widget_types.ts']] },
  {
    name: 'replace the storage version v2 by v3 at once',
    edit: (dir) => {
      copyVersion(dir, 'v2', 'v3');
      rmSync(join(dir, 'src/api/v2'), { recursive: true });
    },
    breaking: [['stored-version-removed', 'export interface Widget {', 'src/api/v3/widget_types.ts']],
    compatible: ['version-added'],
  },
];

describe('opgen manifests --check against the released API', () => {
  it(`classifies each of ${steps.length} edits of an API against the one before`, async () => {
    const dir = copyFixture('compat');
    dirs.push(dir);
    expect((await opgen('manifests', '--dir', dir)).code).toBe(0);
    const breakingSeen = new Set<string>();
    for (const step of steps) {
      const base = tempDir();
      cpSync(join(dir, 'config/crd/bases'), base, { recursive: true });
      step.edit(dir);
      // Samples are the user's once written; fresh ones follow each step's schema.
      rmSync(join(dir, 'config/samples'), { recursive: true, force: true });
      const generated = await opgen('manifests', '--dir', dir);
      expect(generated.stderr, step.name).toBe('');
      const run = await opgen('manifests', '--check', '--base', base, '--dir', dir);
      const expected = (step.breaking ?? []).map(([rule, at, file = types]) => {
        breakingSeen.add(rule);
        return at ? `${file}:${lineOf(dir, file, at)}:${rule}` : `${join(base, 'shop.example.com_gadgets.yaml')}:${rule}`;
      });
      const errors = run.stderr
        .split('\n')
        .filter(Boolean)
        .map((line) => {
          const match = /^(.*?)(?::(\d+):\d+)?: error: .* breaks the API released as .* \(([a-z-]+)\) \(--allow-breaking=\3 accepts it on purpose\)$/.exec(line);
          if (!match) return `unexpected: ${line}`;
          return match[2] ? `${match[1]}:${match[2]}:${match[3]}` : `${join(process.cwd(), match[1]!)}:${match[3]}`;
        });
      expect(errors.sort(), step.name).toEqual(expected.sort());
      expect(run.code, step.name).toBe(expected.length ? 1 : 0);
      const compatible = [...run.stdout.matchAll(/^compatible with .*\(([a-z-]+)\)$/gm)].map((m) => m[1]);
      expect([...new Set(compatible)].sort(), step.name).toEqual([...new Set(step.compatible ?? [])].sort());
    }
    expect(breakingSeen.size).toBeGreaterThanOrEqual(25);
  }, 120_000);

  it('compares with the last git tag by default; --allow-breaking accepts a rule on purpose; an unknown rule is refused', async () => {
    const dir = copyFixture('compat');
    dirs.push(dir);
    await opgen('manifests', '--dir', dir);
    const git = (...args: string[]) => execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@example.com', ...args], { cwd: dir, stdio: 'pipe' });
    git('init', '-q');
    git('add', '.');
    git('commit', '-qm', 'v0.1.0');
    git('tag', 'v0.1.0');
    replace(dir, types, '  /** legacy setting, to be removed. */\n  legacy?: string;\n', '');
    await opgen('manifests', '--dir', dir);
    git('commit', '-qam', 'drop legacy');

    const refused = await opgen('manifests', '--check', '--dir', dir);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toBe(
      `${types}:${lineOf(dir, types, 'spec: WidgetSpec')}:3: error: Widget v1 spec.legacy: field legacy removed breaks the API released as v0.1.0 (field-removed) (--allow-breaking=field-removed accepts it on purpose)\n`,
    );
    const allowed = await opgen('manifests', '--check', '--allow-breaking=field-removed', '--dir', dir);
    expect(allowed).toMatchObject({ code: 0, stderr: '' });
    expect(allowed.stdout).toContain('breaking but allowed: Widget v1 spec.legacy: field legacy removed (field-removed)\n');
    // A ref names any release, not only the last tag: HEAD has no change.
    expect(await opgen('manifests', '--check', '--base', 'HEAD', '--dir', dir)).toMatchObject({ code: 0, stdout: 'manifests are up to date\n' });

    const unknown = await opgen('manifests', '--check', '--allow-breaking=field-removd', '--dir', dir);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toMatch(/^error: --allow-breaking: unknown rule field-removd \(known: kind-removed, scope-changed, .*field-removed.*\)\n$/);
    const badRef = await opgen('manifests', '--check', '--base', 'v9.9.9', '--dir', dir);
    expect(badRef).toMatchObject({ code: 1 });
    expect(badRef.stderr).toMatch(/^error: --base v9\.9\.9 is neither a directory nor a git ref/);
    expect(await opgen('manifests', '--base', 'v0.1.0', '--dir', dir)).toMatchObject({ code: 1, stderr: 'error: --base works only with --check (opgen manifests --check --base…)\n' });
  });

  it('says plainly when there is no release to compare with, and still checks staleness', async () => {
    const dir = copyFixture('compat');
    dirs.push(dir);
    await opgen('manifests', '--dir', dir);
    execFileSync('git', ['init', '-q'], { cwd: dir });
    const run = await opgen('manifests', '--check', '--dir', dir);
    expect(run).toMatchObject({ code: 0, stdout: 'no released API to compare with (no git tag yet); skipped the breaking-change check (--base <ref|dir> names one)\nmanifests are up to date\n' });
    rmSync(join(dir, '.git'), { recursive: true });
    expect((await opgen('manifests', '--check', '--dir', dir)).stdout).toBe('no released API to compare with (not a git repository); skipped the breaking-change check (--base <ref|dir> names one)\nmanifests are up to date\n');
    writeFileSync(join(dir, 'config/rbac/role.yaml'), 'edited\n');
    expect(await opgen('manifests', '--check', '--dir', dir)).toMatchObject({ code: 1, stderr: 'error: config/rbac/role.yaml is stale; run opgen manifests\n' });
  });

  it('--allow-alpha-changes accepts breaking changes to a version served as alpha, not to others', async () => {
    const dir = copyFixture('compat');
    dirs.push(dir);
    renameSync(join(dir, 'src/api/v1'), join(dir, 'src/api/v1alpha1'));
    replace(dir, 'src/api/v1alpha1/groupversion_info.ts', "version: 'v1'", "version: 'v1alpha1'");
    replace(dir, 'PROJECT', 'version: v1\n', 'version: v1alpha1\n');
    replace(dir, 'PROJECT', 'path: src/api/v1', 'path: src/api/v1alpha1');
    expect((await opgen('manifests', '--dir', dir)).code).toBe(0);
    const base = tempDir();
    cpSync(join(dir, 'config/crd/bases'), base, { recursive: true });
    replace(dir, 'src/api/v1alpha1/widget_types.ts', '@maxLength 63', '@maxLength 10');
    await opgen('manifests', '--dir', dir);
    expect((await opgen('manifests', '--check', '--base', base, '--dir', dir)).code).toBe(1);
    const run = await opgen('manifests', '--check', '--base', base, '--allow-alpha-changes', '--dir', dir);
    expect(run).toMatchObject({ code: 0, stderr: '' });
    expect(run.stdout).toContain('breaking but allowed: Widget v1alpha1 spec.name: maxLength 63 → 10 (max-length-tightened)\n');
  });

  it("the examples' own history passes: BookStore v1alpha1 → v1alpha2 is compatible", async () => {
    const bookstore = fileURLToPath(new URL('../../examples/bookstore/', import.meta.url));
    const repo = execFileSync('git', ['rev-parse', '--show-toplevel'], { cwd: bookstore, encoding: 'utf8' }).trim();
    expect(existsSync(join(repo, '.git'))).toBe(true);
    // The release before v1alpha2 existed: the parent of the commit that added it.
    const added = execFileSync('git', ['log', '--diff-filter=A', '--format=%H', '--', 'src/api/v1alpha2/bookstore_types.ts'], { cwd: bookstore, encoding: 'utf8' }).trim().split('\n').at(-1)!;
    const run = await opgen('manifests', '--check', '--base', `${added}^`, '--dir', bookstore);
    expect(run).toMatchObject({ code: 0, stderr: '' });
    expect(run.stdout).toBe(`compatible with ${added}^: BookStore v1alpha2: version v1alpha2 added (version-added)\nmanifests are up to date\n`);
  });
});
