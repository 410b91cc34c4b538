import { beforeAll, describe, expect, it } from 'vitest';
import { deliberateDifferences } from './deliberate.js';
import { type Difference, diffCrds } from './diff.js';
import { controllerGenBinary, controllerGenCrds, controllerGenWebhooks, opgenCrds, opgenWebhooks } from './generate.js';

// Twin APIs: the same API in TypeScript (ts/<name>, an opgen project) and in Go
// (go/<package>, what controller-gen reads). opgen must write what controller-gen writes, path
// by path, but for the deliberate differences docs/api-types.md lists with their reasons.
const twins: readonly { name: string; go: string; module?: string }[] = [
  { name: 'markers', go: './markers/...' },
  { name: 'optional', go: './optional/...' },
  { name: 'podtemplate', go: './podtemplate/...' },
  { name: 'kubebuilder-with-plugins', go: './kubebuilder/with-plugins/...' },
  { name: 'kubebuilder-multigroup', go: './kubebuilder/multigroup/...' },
  { name: 'kubebuilder-cronjob', go: './kubebuilder/cronjob/...' },
  { name: 'cert-manager', go: './pkg/apis/certmanager/...', module: 'go-cert-manager' },
];

const deliberate = deliberateDifferences();
const used = new Set<string>();
let binary = '';

/** The differences no deliberate difference explains, as readable lines. */
function unexplained(differences: readonly Difference[]): string[] {
  const lines: string[] = [];
  for (const difference of differences) {
    const reason = deliberate.find((d) => d.matches(difference.where));
    if (reason) used.add(reason.where);
    else lines.push(`${difference.where}: opgen ${JSON.stringify(difference.opgen)}, controller-gen ${JSON.stringify(difference.controllerGen)}`);
  }
  return lines;
}

describe('opgen manifests writes what controller-gen v0.21 writes for the same API', () => {
  beforeAll(() => {
    binary = controllerGenBinary();
  }, 900_000);

  it.each(twins)('$name', async ({ name, go, module }) => {
    const differences = diffCrds(await opgenCrds(name), controllerGenCrds(binary, go, module));
    expect(unexplained(differences)).toEqual([]);
  });

  it('webhook configurations from every argument of +kubebuilder:webhook', async () => {
    const differences = diffCrds(await opgenWebhooks('optional'), controllerGenWebhooks(binary, './optional/webhooks/...'));
    expect(unexplained(differences)).toEqual([]);
  });

  it('lists no deliberate difference that no twin shows', () => {
    expect(deliberate.length).toBeGreaterThan(0);
    expect(deliberate.map((d) => d.where).filter((where) => !used.has(where))).toEqual([]);
  });
});
