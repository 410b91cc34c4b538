import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { noReleaseNotice } from '../../src/commands/manifests-compat.js';
import { copyFixture, opgen } from './run.js';

const crd = 'config/crd/bases/storage.example.com_demovolumes.yaml';

describe('opgen manifests', () => {
  const dirs: string[] = [];
  const fixture = (name = 'demovolume') => {
    const dir = copyFixture(name);
    dirs.push(dir);
    return dir;
  };
  afterEach(() => {
    for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
  });

  it('is idempotent: a second run changes nothing', async () => {
    const dir = fixture();
    expect((await opgen('manifests', '--dir', dir)).code).toBe(0);
    const again = await opgen('manifests', '--dir', dir);
    expect(again).toMatchObject({ code: 0, stdout: 'manifests are up to date\n', stderr: '' });
  });

  it('--check passes when the files are current, and names each stale file without writing', async () => {
    const dir = fixture();
    await opgen('manifests', '--dir', dir);
    expect(await opgen('manifests', '--check', '--dir', dir)).toMatchObject({ code: 0, stdout: `${noReleaseNotice('not a git repository')}\nmanifests are up to date\n` });

    writeFileSync(join(dir, crd), 'edited by hand\n');
    rmSync(join(dir, 'config/rbac/role.yaml'));
    const stale = await opgen('manifests', '--check', '--dir', dir);
    expect(stale.code).toBe(1);
    expect(stale.stderr).toBe(`error: ${crd} is stale; run opgen manifests\nerror: config/rbac/role.yaml is stale; run opgen manifests\n`);
    expect(readFileSync(join(dir, crd), 'utf8')).toBe('edited by hand\n');
    expect(existsSync(join(dir, 'config/rbac/role.yaml'))).toBe(false);
  });

  it('--check notices an API change that the CRD on disk does not have', async () => {
    const dir = fixture();
    await opgen('manifests', '--dir', dir);
    const types = join(dir, 'src/api/v1/demovolume_types.ts');
    writeFileSync(types, readFileSync(types, 'utf8').replace('@maxLength 63', '@maxLength 40'));
    const stale = await opgen('manifests', '--check', '--dir', dir);
    expect(stale).toMatchObject({ code: 1, stderr: `error: ${crd} is stale; run opgen manifests\n` });
  });

  it('keeps a sample the user edited', async () => {
    const dir = fixture();
    await opgen('manifests', '--dir', dir);
    writeFileSync(join(dir, 'config/samples/storage_v1_demovolume.yaml'), 'mine\n');
    expect((await opgen('manifests', '--dir', dir)).code).toBe(0);
    expect(readFileSync(join(dir, 'config/samples/storage_v1_demovolume.yaml'), 'utf8')).toBe('mine\n');
  });

  it('reports every error of a run, each with its place, exits 1 and writes nothing', async () => {
    const dir = fixture();
    const types = join(dir, 'src/api/v1/demovolume_types.ts');
    writeFileSync(
      types,
      readFileSync(types, 'utf8')
        .replace('@minimum 1', '@minimun 1')
        .replace('size: int32;', 'size: int32;\n  created: Date;')
        .replace('+listMapKey=type', '+listMapKey=kind'),
    );
    const controller = join(dir, 'src/controllers/demovolume_controller.ts');
    writeFileSync(controller, readFileSync(controller, 'utf8').replace('verbs=create;patch', 'verb=create;patch'));
    const run = await opgen('manifests', '--dir', dir);
    expect(run.code).toBe(1);
    expect(run.stderr.trim().split('\n')).toEqual([
      'src/api/v1/demovolume_types.ts:15:6: error: unknown tag @minimun (did you mean @minimum?)',
      'src/api/v1/demovolume_types.ts:18:12: error: `Date` is not JSON (use Time from @opgen/runtime/api (an RFC 3339 string))',
      'src/api/v1/demovolume_types.ts:29:6: error: list-map key kind is not a field of the list items (fields: lastTransitionTime, message, observedGeneration, reason, status, type)',
      'src/controllers/demovolume_controller.ts:5:51: error: malformed marker +kubebuilder:rbac:groups=core,resources=events,verb=create;patch: unknown argument "verb" (did you mean "verbs"?); known: groups, resources, resourceNames, verbs, urls, namespace, roleName (write it as +kubebuilder:rbac:verbs=a;b[,groups=a;b][,resources=a;b][,resourceNames=a;b][,urls=a;b][,namespace=<text>][,roleName=<text>])',
    ]);
    expect(existsSync(join(dir, 'config'))).toBe(false);
  });

  it('syntax-checks the CEL of a webhook match condition and reports it at its character', async () => {
    const dir = fixture();
    const marker =
      '// +kubebuilder:webhook:path=/validate--v1-pod,mutating=false,failurePolicy=fail,sideEffects=None,groups=core,resources=pods,' +
      'verbs=create,versions=v1,name=vpod.example.com,admissionReviewVersions=v1,' +
      'matchConditions=[{"name": "ok", "expression": "true"}, {"name": "broken", "expression": "object.metadata.name == \\"a\\" &&"}]';
    writeFileSync(join(dir, 'src/webhooks.ts'), `${marker}\nexport {};\n`);
    const run = await opgen('manifests', '--dir', dir);
    expect(run.code).toBe(1);
    // The column is the end of the expression, where CEL wanted an operand after "&&" (past the escaped quotes as written).
    const column = marker.indexOf('&&"') + 3;
    expect(run.stderr.trim().split('\n')).toEqual([
      `src/webhooks.ts:1:${column}: error: +kubebuilder:webhook: matchConditions [1] expression "broken" is not valid CEL: unexpected end of expression, expected an expression`,
    ]);
    expect(existsSync(join(dir, 'config'))).toBe(false);
  });

  it("keeps a webhook on Pods out of the namespace config/default deploys to, and reports a corrupt kustomization at its line", async () => {
    const dir = fixture('everything');
    mkdirSync(join(dir, 'config/default'), { recursive: true });
    writeFileSync(join(dir, 'config/default/kustomization.yaml'), 'namespace: shop-operators\nnamePrefix: shop-\n');
    expect((await opgen('manifests', '--dir', dir)).code).toBe(0);
    const webhooks = readFileSync(join(dir, 'config/webhook/manifests.yaml'), 'utf8');
    expect(webhooks).toContain('          values:\n            - shop-operators\n            - kube-system\n');

    writeFileSync(join(dir, 'config/default/kustomization.yaml'), 'namespace: shop-operators\nresources: [../crd\n');
    const run = await opgen('manifests', '--dir', dir);
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/^config\/default\/kustomization\.yaml:3:1: error: corrupt kustomization: /);
    expect(run.stderr.trim().split('\n')).toHaveLength(1);
  });

  it('refuses to run outside a project', async () => {
    const dir = fixture();
    rmSync(join(dir, 'PROJECT'));
    const run = await opgen('manifests', '--dir', dir);
    expect(run.code).toBe(1);
    expect(run.stderr).toContain(`error: no PROJECT file in ${dir}: not an opgen project`);
  });

  it('rejects a --max-desc-len that is not a number', async () => {
    const run = await opgen('manifests', '--max-desc-len', 'short', '--dir', fixture());
    expect(run.code).toBe(1);
    expect(run.stderr).toContain('expected a whole number of characters');
  });
});
