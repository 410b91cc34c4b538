import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { cleanUp, opgen, projectDir, expectRefused as expectRefusedIn } from './run.js';

// Every bad input gets one line on stderr that names the problem (and the file, where there
// is one), a non-zero exit code, and leaves the directory exactly as it was.

let dir: string;
afterEach(async () => {
  if (dir) await cleanUp(dir);
});

const expectRefused = (args: string[], message: RegExp): Promise<void> => expectRefusedIn(dir, args, message);

/** A project with the Civo tutorial's DemoVolume kind. */
async function civoProject(): Promise<void> {
  dir = await projectDir('demo-volume-operator');
  expect((await opgen(dir, 'init', '--domain', 'civo.com', '--skip-install')).code).toBe(0);
  expect((await opgen(dir, 'create', 'api', '--group', 'storage', '--version', 'v1', '--kind', 'DemoVolume')).code).toBe(0);
}

const createApi = (...flags: string[]) => ['create', 'api', ...flags];
const demoVolume = ['--group', 'storage', '--version', 'v1', '--kind', 'DemoVolume'];

describe('opgen init refuses', () => {
  it.each([
    ['an unknown flag', ['init', '--domian', 'civo.com'], /^error: unknown option '--domian'/],
    [
      'an invalid domain',
      ['init', '--domain', 'Civo_Com'],
      /^error: invalid domain "Civo_Com": must be a DNS-1123 subdomain \(lower-case letters, digits, "-" and "\.", e\.g\. example\.com\)$/,
    ],
    ['a domain with an empty label', ['init', '--domain', 'civo..com'], /^error: invalid domain "civo\.\.com"/],
    ['an invalid project name', ['init', '--project-name', 'Demo_Operator'], /^error: invalid project name "Demo_Operator": must be a DNS-1123 label/],
    [
      'a project name too long for the objects named after it',
      ['init', '--project-name', 'a-very-long-project-name-for-an-operator'],
      /^error: invalid project name "a-very-long-project-name-for-an-operator": 40 characters, at most 28 fit \(the metrics Service .* must be at most 63 characters\)$/,
    ],
    ['an unknown license', ['init', '--license', 'mit'], /^error: option '--license <license>' argument 'mit' is invalid\. Allowed choices are apache2, none\.$/],
    ['an owner that would end the header comment', ['init', '--owner', 'Evil */ code'], /^error: invalid owner "Evil \*\/ code": must be one line without "\*\/"$/],
    ['an argument it does not take', ['init', 'my-operator'], /^error: too many arguments for 'init'/],
    ['an empty runtime spec', ['init', '--runtime', ''], /^error: --runtime needs an npm spec, e\.g\. \^\d+\.\d+\.\d+ or file:\.\.\/runtime$/],
    [
      'an operator of many clusters that watches one namespace',
      ['init', '--multicluster', '--namespaced'],
      /^error: --namespaced: an operator of many clusters \(--multicluster\) does not watch one namespace; the rights it has on each cluster are its kubeconfig Secret's \(give the credentials/,
    ],
    ['a chart-backed operator of many clusters', ['init', '--multicluster', '--plugins', 'helm-operator'], /^error: --multicluster and --plugins helm-operator do not combine yet/],
  ])('%s', async (_, args, message) => {
    dir = await projectDir('demo-volume-operator');
    await expectRefused(args, message);
  });

  it('a directory whose name is not a valid project name, unless --project-name is given', async () => {
    dir = await projectDir('Demo_Operator');
    await expectRefused(
      ['init', '--skip-install'],
      /^error: invalid project name "Demo_Operator" \(the directory's name\): must be a DNS-1123 label \(.*; pass --project-name\)$/,
    );
    expect((await opgen(dir, 'init', '--project-name', 'demo-operator', '--skip-install')).code).toBe(0);
  });

  it('a directory with unrelated files, unless --force', async () => {
    dir = await projectDir('demo-volume-operator');
    await writeFile(join(dir, 'notes.txt'), 'mine');
    await mkdir(join(dir, 'docs'));
    await expectRefused(
      ['init', '--skip-install'],
      /^error: .*demo-volume-operator is not empty \(docs, notes\.txt\); nothing was written \(run opgen init in an empty directory, or pass --force\)$/,
    );
    const forced = await opgen(dir, 'init', '--force', '--skip-install');
    expect(forced.code).toBe(0);
    expect(await readFile(join(dir, 'notes.txt'), 'utf8')).toBe('mine');
    expect(forced.stdout).toContain('CREATE PROJECT');
  });

  it.each([[[]], [['--force']]])('a directory that already holds a project (flags: %j)', async (flags) => {
    await civoProject();
    await expectRefused(
      ['init', '--skip-install', ...flags],
      /^PROJECT: error: an opgen project is already here; init never scaffolds over one, and nothing was written \(add kinds with opgen create api, change the project's settings with opgen edit\)$/,
    );
  });

  it('accepts version control and editor folders and a license', async () => {
    dir = await projectDir('demo-volume-operator');
    await mkdir(join(dir, '.git'));
    await writeFile(join(dir, 'LICENSE'), 'Apache License');
    expect((await opgen(dir, 'init', '--skip-install')).code).toBe(0);
  });
});

describe('a typo is refused naming what was meant', () => {
  // The unknown option, not the required one it was meant for: commander checks required
  // options first unless opgen moves that check after it.
  it.each([
    ['create api', createApi('--grup', 'storage', '--version', 'v1', '--kind', 'Disk'), /^error: unknown option '--grup' \(Did you mean --group\?\)$/],
    ['create api', createApi('--group', 'storage', '--versoin', 'v1', '--kind', 'Disk'), /^error: unknown option '--versoin' \(Did you mean --version\?\)$/],
    [
      'create webhook',
      ['create', 'webhook', '--grup', 'storage', '--version', 'v1', '--kind', 'DemoVolume', '--defaulting'],
      /^error: unknown option '--grup' \(Did you mean --group\?\)$/,
    ],
    ['delete api', ['delete', 'api', '--grup', 'storage', '--version', 'v1', '--kind', 'DemoVolume'], /^error: unknown option '--grup' \(Did you mean --group\?\)$/],
    ['init', ['init', '--domian', 'civo.com'], /^error: unknown option '--domian' \(Did you mean --domain\?\)$/],
    ['a command', ['creat', 'api', ...demoVolume], /^error: unknown command 'creat' \(Did you mean create\?\)$/],
    ['a sub-command', ['create', 'apy', ...demoVolume], /^error: unknown command 'apy' \(Did you mean api\?\)$/],
  ])('%s: %j', async (_command, args, message) => {
    await civoProject();
    await expectRefused(args, message);
  });
});

describe('opgen create api refuses', () => {
  it('to run outside a project', async () => {
    dir = await projectDir('not-a-project');
    await expectRefused(
      createApi(...demoVolume),
      /^error: no PROJECT file in .*not-a-project: not an opgen project \(run opgen create api in the root folder of a project made by opgen init\)$/,
    );
  });

  it.each([
    ['an unknown flag', createApi(...demoVolume, '--namespace'), /^error: unknown option '--namespace'/],
    ['a missing flag', createApi('--group', 'storage', '--version', 'v1'), /^error: required option '--kind <kind>' not specified$/],
    ['a bad boolean', createApi(...demoVolume, '--namespaced=no'), /^error: option '--namespaced \[bool\]' argument 'no' is invalid\. expected true or false$/],
    ['an invalid group', createApi('--group', 'Storage', '--version', 'v1', '--kind', 'Disk'), /^error: invalid group "Storage": must be a DNS-1123 subdomain/],
    [
      'a group that already carries the domain',
      createApi('--group', 'storage.civo.com', '--version', 'v1', '--kind', 'Disk'),
      /^error: invalid group "storage\.civo\.com": it already ends with the project domain "civo\.com" \(pass --group storage; the domain is added to it\)$/,
    ],
    [
      'a group too long with the domain',
      createApi('--group', `${'a'.repeat(60)}.${'b'.repeat(60)}.${'c'.repeat(60)}.${'d'.repeat(63)}`, '--version', 'v1', '--kind', 'Disk'),
      /^error: invalid group "a+\.b+\.c+\.d+": with the project domain the API group "a+\.b+\.c+\.d+\.civo\.com" is longer than 253 characters$/,
    ],
    [
      'a second group in a project that is not multigroup',
      createApi('--group', 'compute', '--version', 'v1', '--kind', 'Machine'),
      /^PROJECT: error: group "compute": this project holds the group "storage" only \(a project with several groups is made with opgen init --multigroup\)$/,
    ],
    ['a version without v', createApi('--group', 'storage', '--version', '1', '--kind', 'Disk'), /^error: invalid version "1": not a Kubernetes API version \(v<major>, optionally followed by alpha<n> or beta<n>, e\.g\. v1, v1alpha1, v2beta3\)$/],
    ['a version in upper case', createApi('--group', 'storage', '--version', 'V1', '--kind', 'Disk'), /^error: invalid version "V1"/],
    ['a beta without its number', createApi('--group', 'storage', '--version', 'v1beta', '--kind', 'Disk'), /^error: invalid version "v1beta"/],
    ['version zero', createApi('--group', 'storage', '--version', 'v0', '--kind', 'Disk'), /^error: invalid version "v0"/],
    ['a kind in camelCase', createApi('--group', 'storage', '--version', 'v1', '--kind', 'demoVolume'), /^error: invalid kind "demoVolume": must be PascalCase \(an upper-case letter followed by letters and digits, e\.g\. DemoVolume\)$/],
    ['a kind with a dash', createApi('--group', 'storage', '--version', 'v1', '--kind', 'Demo-Volume'), /^error: invalid kind "Demo-Volume": must be PascalCase/],
    [
      'a kind that would shadow a runtime import',
      createApi('--group', 'storage', '--version', 'v1', '--kind', 'Condition'),
      /^error: invalid kind "Condition": the generated code imports Condition from @opgen\/runtime\/api, which the kind would shadow \(choose another name\)$/,
    ],
    ['an invalid plural', createApi('--group', 'storage', '--version', 'v1', '--kind', 'Disk', '--plural', 'Disks'), /^error: invalid plural "Disks": must be a lower-case DNS-1035 label/],
    [
      'a plural another kind of the group has',
      createApi('--group', 'storage', '--version', 'v1', '--kind', 'Disk', '--plural', 'demovolumes'),
      /^PROJECT: error: plural "demovolumes" is already the plural of DemoVolume in group storage\.civo\.com \(pass another --plural\)$/,
    ],
    [
      'a kind named like the list kind of another kind of the group',
      createApi('--group', 'storage', '--version', 'v1', '--kind', 'DemoVolumeList'),
      /^PROJECT: error: --kind DemoVolumeList: "DemoVolumeList" is already in use \(KindConflict\): DemoVolumeList is the list kind of DemoVolume in group storage\.civo\.com, and the API server would never establish the CRD; nothing was written \(choose another --kind\)$/,
    ],
    [
      'a plural that is the singular of another kind of the group',
      createApi('--group', 'storage', '--version', 'v1', '--kind', 'Disk', '--plural', 'demovolume'),
      /^PROJECT: error: --plural demovolume: "demovolume" is already in use \(PluralConflict\): demovolume is the singular of DemoVolume in group storage\.civo\.com/,
    ],
    [
      'a kind that already exists',
      createApi(...demoVolume),
      /^PROJECT: error: kind DemoVolume \(storage\.civo\.com\/v1\) already exists; nothing was written \(pass --force to re-scaffold it, or --no-resource to add only a controller\)$/,
    ],
    [
      'a second controller for another version of a kind',
      createApi('--group', 'storage', '--version', 'v2', '--kind', 'DemoVolume'),
      /^PROJECT: error: DemoVolume already has a controller, for version v1; nothing was written \(pass --no-controller: one controller serves every version of a kind\)$/,
    ],
    [
      'another version of a kind with another scope',
      createApi('--group', 'storage', '--version', 'v2', '--kind', 'DemoVolume', '--no-controller', '--namespaced=false'),
      /^PROJECT: error: DemoVolume is namespaced in version v1; all versions of a kind share one scope$/,
    ],
    ['nothing to scaffold', createApi('--group', 'storage', '--version', 'v1', '--kind', 'Disk', '--no-resource', '--no-controller'), /^error: nothing to scaffold: --no-resource and --no-controller$/],
    [
      'a controller for types that do not exist',
      createApi('--group', 'storage', '--version', 'v1', '--kind', 'Disk', '--no-resource'),
      /^error: --no-resource: Disk has no API types at src\/api\/v1\/disk_types\.ts \(create them first, or leave out --no-resource\)$/,
    ],
  ])('%s', async (_, args, message) => {
    await civoProject();
    await expectRefused(args, message);
  });

  it('a corrupt PROJECT file, naming the line', async () => {
    await civoProject();
    const text = await readFile(join(dir, 'PROJECT'), 'utf8');
    await writeFile(join(dir, 'PROJECT'), text.replace('  - api:\n', '  - api: [\n'));
    await expectRefused(createApi('--group', 'storage', '--version', 'v1', '--kind', 'Disk'), /^PROJECT:\d+:\d+: error: corrupt PROJECT file: /);
  });

  it('a PROJECT file with a value of the wrong type, naming the line and column', async () => {
    await civoProject();
    const text = await readFile(join(dir, 'PROJECT'), 'utf8');
    await writeFile(join(dir, 'PROJECT'), text.replace('    controller: true', '    controller: "yes"'));
    const line = text.split('\n').indexOf('    controller: true') + 1;
    await expectRefused(createApi('--group', 'storage', '--version', 'v1', '--kind', 'Disk'), new RegExp(`^PROJECT:${line}:17: error: "controller" must be true or false$`));
  });

  it('a src/main.ts without the scaffold marker, writing none of the kind\'s files', async () => {
    await civoProject();
    const main = await readFile(join(dir, 'src/main.ts'), 'utf8');
    await writeFile(join(dir, 'src/main.ts'), main.replace(/^\/\/ opgen:scaffold.*\n/m, ''));
    await expectRefused(
      createApi('--group', 'storage', '--version', 'v1', '--kind', 'Disk'),
      /^src\/main\.ts: error: no "\/\/ opgen:scaffold:controllers" line to register setupDiskController at \(put that comment line where controllers are set up, before mgr\.start\(\)\)$/,
    );
  });

  it('a corrupt kustomization.yaml, naming the line', async () => {
    await civoProject();
    await writeFile(join(dir, 'config/rbac/kustomization.yaml'), 'resources:\n  - role.yaml\n  bad: [\n');
    await expectRefused(createApi('--group', 'storage', '--version', 'v1', '--kind', 'Disk'), /^config\/rbac\/kustomization\.yaml:\d+:\d+: error: corrupt kustomization: /);
  });

  it('files in the way that opgen did not write, unless --force, which keeps them', async () => {
    await civoProject();
    await writeFile(join(dir, 'src/api/v1/disk_types.ts'), '// hand-written\n');
    await expectRefused(
      createApi('--group', 'storage', '--version', 'v1', '--kind', 'Disk'),
      /^error: src\/api\/v1\/disk_types\.ts already exists and opgen did not scaffold it for this kind; nothing was written \(move it away, or pass --force to keep it and write the rest\)$/,
    );
    const forced = await opgen(dir, ...createApi('--group', 'storage', '--version', 'v1', '--kind', 'Disk', '--force'));
    expect(forced.code).toBe(0);
    expect(forced.stdout).toMatch(/^SKIP {3}src\/api\/v1\/disk_types\.ts$/m);
    expect(await readFile(join(dir, 'src/api/v1/disk_types.ts'), 'utf8')).toBe('// hand-written\n');
  });
});
