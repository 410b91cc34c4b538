import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { cleanUp, opgenOk, projectDir, readTree } from './run.js';

// `opgen delete api` of a kind with webhooks in a project with a Helm chart: the next
// `opgen edit --plugins helm` leaves the chart of a project that never had the kind, its
// webhook templates (Service, configurations, certificate RBAC) deleted. Needs kubectl.

const dirs: string[] = [];
afterEach(async () => {
  for (const dir of dirs.splice(0)) await cleanUp(dir);
});

const run = opgenOk;

/** init, Widget v1; with `gadget`, Gadget v1 with defaulting and validating webhooks; manifests; the chart. */
async function chartProject(gadget: boolean): Promise<string> {
  const dir = await projectDir('shop-operator');
  dirs.push(dir);
  await run(dir, 'init', '--domain', 'example.com', '--skip-install');
  await run(dir, 'create', 'api', '--group', 'shop', '--version', 'v1', '--kind', 'Widget');
  if (gadget) {
    await run(dir, 'create', 'api', '--group', 'shop', '--version', 'v1', '--kind', 'Gadget');
    await run(dir, 'create', 'webhook', '--group', 'shop', '--version', 'v1', '--kind', 'Gadget', '--defaulting', '--programmatic-validation');
  }
  await run(dir, 'manifests');
  await run(dir, 'edit', '--plugins', 'helm');
  return dir;
}

const chart = async (dir: string) => new Map([...(await readTree(dir))].filter(([path]) => path.startsWith('dist/chart/')));

describe('the Helm chart after opgen delete api of a kind with webhooks', () => {
  it('is, once edit --plugins helm runs again, the chart of a project that never had the kind', async () => {
    const dir = await chartProject(true);
    const mine = join(dir, 'dist/chart/templates/extras/my-config.yaml');
    await writeFile(mine, 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: mine\n');
    const webhookTemplates = [...(await chart(dir)).keys()].filter((p) => /webhook/.test(p));
    expect(webhookTemplates).toEqual(expect.arrayContaining(['dist/chart/templates/extras/webhook-service.yaml', 'dist/chart/templates/rbac/webhook-certs-role-role.yaml']));

    const deleted = await run(dir, 'delete', 'api', '--group', 'shop', '--version', 'v1', '--kind', 'Gadget');
    expect(deleted).toContain('then opgen edit --plugins helm');
    await run(dir, 'manifests');
    const out = await run(dir, 'edit', '--plugins', 'helm');
    for (const path of webhookTemplates) expect(out).toContain(`DELETE ${path}`);

    const never = await chartProject(false);
    const got = await chart(dir);
    expect(await readFile(mine, 'utf8')).toContain('name: mine');
    got.delete('dist/chart/templates/extras/my-config.yaml');
    expect(got).toEqual(await chart(never));
  });
});
