import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { controller, createClient, createManager, type Client } from '@opgen/runtime';
import { freePort, installCRDs, resolveBinaries, startControlPlane, startTestCluster } from '@opgen/runtime/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Widget } from '../../book/snippets/widget-types.js';
import { cleanUp, opgen, projectDir } from '../scaffold/run.js';
import { opgenArgs } from './commands.js';
import { missingLines, troubles, type Trouble } from './troubleshooting.js';

// Each section of the Troubleshooting chapter quotes an error; here each is made to happen as
// the section describes, and what it printed must contain the quoted lines. A section without
// a case here, or a case without its section, fails the test.

const CRD = new URL('./widget-crd.yaml', import.meta.url).pathname;
const TYPES = 'src/api/v1/widget_types.ts';

let project: string;
const made: string[] = [];

beforeAll(async () => {
  project = await projectDir('widget-operator');
  made.push(project);
  await opgenOrFail(project, 'init', '--domain', 'example.com', '--skip-install');
  await opgenOrFail(project, 'create', 'api', '--group', 'web', '--version', 'v1', '--kind', 'Widget');
  await opgenOrFail(project, 'manifests');
});
afterAll(async () => Promise.all(made.map(cleanUp)));

async function opgenOrFail(dir: string, ...args: string[]): Promise<void> {
  const { code, stderr } = await opgen(dir, ...args);
  expect(code, `opgen ${args.join(' ')}: ${stderr}`).toBe(0);
}

/** Runs the section's commands (opgen's, in-process) in `dir`; returns all they printed. */
async function runIn(dir: string, trouble: Trouble): Promise<string> {
  let printed = '';
  for (const command of trouble.commands) {
    const args = opgenArgs(command);
    if (!args) throw new Error(`${trouble.heading}: not an opgen command: ${command}`);
    const { stdout, stderr } = await opgen(dir, ...args);
    printed += stdout + stderr;
  }
  return printed;
}

/** Runs the section's commands with the project's types file edited by `edit`, then puts it back. */
async function withTypes(trouble: Trouble, edit: (types: string) => string): Promise<string> {
  const file = join(project, TYPES);
  const types = await readFile(file, 'utf8');
  const edited = edit(types);
  expect(edited).not.toBe(types);
  await writeFile(file, edited);
  try {
    return await runIn(project, trouble);
  } finally {
    await writeFile(file, types);
  }
}

/** The message of what `action` threw. */
async function thrown(action: () => Promise<unknown>): Promise<string> {
  try {
    await action();
  } catch (error) {
    return (error as Error).message;
  }
  throw new Error('nothing was thrown');
}

/** The message of what `action` threw on a memory cluster with the book's Widget CRD. */
async function onMemoryCluster(action: (client: Client) => Promise<void>): Promise<string> {
  const cluster = await startTestCluster({ crds: CRD, tier: 'memory' });
  try {
    return await thrown(() => action(createClient(cluster.cluster)));
  } finally {
    await cluster.stop();
  }
}

/** How each section's error is made to happen, by heading. */
const CASES: Record<string, (trouble: Trouble) => Promise<string>> = {
  'A mistyped option or command': (t) => runIn(project, t),
  'Not in a project folder': async (t) => {
    const empty = await projectDir('not-a-project');
    made.push(empty);
    return runIn(empty, t);
  },
  'A kind name opgen refuses': (t) => runIn(project, t),
  'The kind exists already': (t) => runIn(project, t),
  'A marker with a typo': (t) =>
    withTypes(t, (types) => types.replace(' * @maxLength 64\n', ' * @maxLength 64\n   * +kubebuilder:validation:Minimun=1\n')),
  'A validation rule the API server would refuse': (t) =>
    withTypes(t, (types) =>
      types
        .replace('foo?: string;', 'size?: string;')
        .replace(
          '/** WidgetSpec is the desired state of a Widget. */',
          '/**\n * WidgetSpec is the desired state of a Widget.\n * +kubebuilder:validation:XValidation:rule="self.size > 3"\n */',
        ),
    ),
  'Manifests out of date in CI': (t) => withTypes(t, (types) => types.replace('@maxLength 64', '@maxLength 63')),
  'A conversion webhook without its versions': (t) => runIn(project, t),
  "A test's object is invalid": () =>
    onMemoryCluster(async (client) => {
      // What the scaffolded test sends once the kind has a required field it does not fill.
      await client.create(Widget, { metadata: { name: 'widget-test', namespace: 'default' }, spec: {} as Widget['spec'] });
    }),
  '"the object has been modified" in the operator\'s log': () =>
    onMemoryCluster(async (client) => {
      const read = await client.create(Widget, { metadata: { name: 'raced', namespace: 'default' }, spec: { size: 1 } });
      await client.update(Widget, { ...read, spec: { size: 2 } });
      // The first read's resourceVersion is stale now: another writer's change came first.
      await client.update(Widget, { ...read, spec: { size: 3 } });
    }),
  'The operator cannot list its own objects': async () => {
    const cp = await startControlPlane({ users: [{ name: 'widget-operator' }] });
    try {
      await installCRDs(cp.kubeConfig, CRD);
      // An identity with no RBAC at all; the default sync timeout is two minutes.
      const mgr = createManager({ kubeConfig: cp.userKubeConfig('widget-operator').kubeConfig, handleSignals: false, logLevel: 'silent', cacheSyncTimeoutMs: 3_000 });
      controller(mgr).for(Widget).reconcile(() => undefined);
      return await thrown(() => mgr.start());
    } finally {
      await cp.stop();
    }
  },
  'The real control plane cannot be found': async () => {
    const home = await mkdtemp(join(tmpdir(), 'opgen-offline-'));
    try {
      // A machine with no cached binaries, no Go on its PATH and no way to the release servers
      // (nothing listens on a port that was free a moment ago).
      const env = { PATH: '/usr/bin:/bin', HOME: home, OPGEN_CACHE_DIR: join(home, 'cache'), OPGEN_ENVTEST_INDEX: `http://127.0.0.1:${await freePort()}/envtest-releases.yaml` };
      return await thrown(() => resolveBinaries({ env }));
    } finally {
      await rm(home, { recursive: true, force: true });
    }
  },
};

describe('the Troubleshooting chapter', () => {
  it('has a case here for each of its sections, and a section for each case', () => {
    expect(troubles().map((t) => t.heading).sort()).toEqual(Object.keys(CASES).sort());
  });

  it.each(troubles())('quotes what users see: $heading', async (trouble) => {
    expect(trouble.printed.length, 'a section quotes at least one line').toBeGreaterThan(0);
    const output = await CASES[trouble.heading]!(trouble);
    expect(missingLines(trouble.printed, output), output).toEqual([]);
  }, 120_000);
});
