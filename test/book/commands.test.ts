import { afterAll, describe, expect, it } from 'vitest';
import { cleanUp, opgen, projectDir } from '../scaffold/run.js';
import { bookCommands, opgenArgs, proseCommands, type BookCommand } from './commands.js';

// Every command the book tells a reader to type either runs here, in order, as written, or is
// named below with the test that runs it or the reason it cannot run on a machine without a
// cluster or the internet. A new command in the book fails this test until it is one or the other.

/** "From init to production" runs on kind, which needs a Docker engine; none is here. */
const ON_KIND = 'needs Docker and kind; test/scaffold/build.test.ts deploys a packed project to a real control plane';
const ROLLOUT = 'needs a cluster with a scheduler and nodes (the test control plane has neither)';
const METRICS = 'needs the operator running in a cluster; test/ship/least-privilege.test.ts reads /metrics with a bound ServiceAccount token';

/** Commands this test does not run, each with where it is proven or why it cannot run here. */
const NOT_RUN: Record<string, string> = {
  'IMG=widget-operator:0.1.0 npm run docker:build': 'needs a Docker engine (the image is never built in tests here)',
  'IMG=widget-operator:0.2.0 npm run docker:build': 'needs a Docker engine (the image is never built in tests here)',
  'kind create cluster --name widgets': ON_KIND,
  'kind load docker-image widget-operator:0.1.0 --name widgets': ON_KIND,
  'kind load docker-image widget-operator:0.2.0 --name widgets': ON_KIND,
  'kind delete cluster --name widgets': ON_KIND,
  'IMG=widget-operator:0.1.0 npm run deploy': ON_KIND,
  'IMG=widget-operator:0.2.0 npm run deploy': ON_KIND,
  'kubectl -n widget-operator-system rollout status deployment/widget-operator-controller-manager': ROLLOUT,
  'kubectl -n widget-operator-system rollout undo deployment/widget-operator-controller-manager': ROLLOUT,
  'kubectl -n widget-operator-system logs deployment/widget-operator-controller-manager': ROLLOUT,
  'kubectl apply -k config/samples/': 'needs a cluster; test/scaffold/build.test.ts applies the samples to one',
  'kubectl get widgets -A': 'needs a cluster; test/scaffold/build.test.ts applies the samples to one',
  "kubectl get widget widget-sample -o jsonpath='{.status.conditions}'": 'needs the operator running in a cluster; the scaffolded test checks the Ready condition',
  'kubectl create clusterrolebinding widget-operator-metrics-reader --clusterrole=widget-operator-metrics-reader --serviceaccount=widget-operator-system:widget-operator-controller-manager':
    METRICS,
  'kubectl -n widget-operator-system port-forward service/widget-operator-controller-manager-metrics-service 8443:8443': METRICS,
  'TOKEN=$(kubectl -n widget-operator-system create token widget-operator-controller-manager)': METRICS,
  'curl -sk -H "Authorization: Bearer $TOKEN" https://localhost:8443/metrics': METRICS,
  'npm test': 'test/scaffold/build.test.ts runs a packed project\'s npm test',
  'npm run test:e2e': 'needs a cluster with the operator deployed',
  'npm run dev': 'runs until stopped; test/dev/dev.test.ts and test/dev/live-page.test.ts run it',
  'kubectl --kubeconfig .opgen/dev/kubeconfig apply -k config/samples/': 'needs opgen dev running; test/dev/live-page.test.ts applies with kubectl',
  'kubectl --kubeconfig .opgen/dev/kubeconfig get widgets -w': 'needs opgen dev running, and watches until stopped',
  'npm start': 'needs a cluster; test/scaffold/build.test.ts starts a packed project\'s operator on one',
  'ENABLE_WEBHOOKS=false npm start': 'needs a cluster',
  'npm install cron-parser': 'needs the npm registry; examples/cronjob depends on it',
  'npm run crds:install': 'needs a cluster; test/deploy/commands.test.ts runs it with --dry-run',
  'IMG=registry.example.com/widget-operator:0.1.0 npm run deploy': 'needs a cluster; test/scaffold/build.test.ts deploys to one',
  'npm run build-installer': 'test/deploy/commands.test.ts runs opgen build-installer',
  'npm run undeploy': 'needs a cluster; test/deploy/commands.test.ts checks its plan',
  'npx opgen scorecard': 'needs a cluster; test/bundle/scorecard.integration.test.ts runs it on one',
  'npm install --save-dev opgen@latest && npm install': 'needs the npm registry',
  'npm run manifests': 'the same as npx opgen manifests, which runs here',
  'npm run docker:build': 'needs a Docker engine (the image is never built in tests here)',
  'node dist/main.js --tls-min-version VersionTLS13': 'needs a cluster; runtime/test/webhook/tls.test.ts covers the TLS flags',
  'node dist/main.js --tls-cipher-suites TLS_ECDHE_ECDSA_WITH_AES_128_GCM_SHA256,TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256':
    'needs a cluster; runtime/test/webhook/tls.test.ts covers the TLS flags',
  'mkdir -p crds': 'part of the downloads below',
  'kubectl -n fleet-operator-system create secret generic east --from-file=kubeconfig=east.yaml':
    'needs a cluster; test/scaffold/multicluster-build.test.ts runs the e2e test that makes such a Secret',
  'kubectl -n fleet-operator-system label secret east sigs.k8s.io/multicluster-runtime-kubeconfig=true':
    'needs a cluster; test/scaffold/multicluster-build.test.ts runs the e2e test that labels such a Secret',
};

/** Chapters whose commands another test runs as the chapter shows them. */
const RUN_ELSEWHERE: Record<string, string> = {
  'external-apis.md': 'test/book/external-apis.test.ts imports the pinned copies of these CRDs',
  'troubleshooting.md': 'test/book/troubleshooting.integration.test.ts runs each in the situation its section describes',
};

/** Options the prose names on purpose although opgen has none of that name. */
const NOT_AN_OPTION: Record<string, string> = {
  '--grup': 'the example of a mistyped option that opgen corrects',
};

/** `mkdir <name> && cd <name>`: the project folder a chapter starts in. */
const NEW_FOLDER = /^mkdir (\S+) && cd \1$/;

const commands = bookCommands();
const chapters = [...new Set(commands.map((c) => c.chapter))];
const where = (c: BookCommand) => `${c.chapter}:${c.line}: ${c.text}`;

/** Runs one chapter's opgen commands in `dir`; returns the first failure, or undefined. */
async function runChapter(dir: string, chapter: string): Promise<string | undefined> {
  for (const command of commands.filter((c) => c.chapter === chapter)) {
    const args = opgenArgs(command.text);
    if (!args || command.text in NOT_RUN) continue;
    // Installing is proven by the packed-project suites; here it would only repeat them.
    if (args[0] === 'init') args.push('--skip-install');
    const { code, stderr } = await opgen(dir, ...args);
    if (code !== 0) return `${where(command)}\n${stderr}`;
  }
  return undefined;
}

const made: string[] = [];
afterAll(async () => Promise.all(made.map(cleanUp)));

async function folder(name: string): Promise<string> {
  const dir = await projectDir(name);
  made.push(dir);
  return dir;
}

describe("the book's commands", () => {
  it('are each run below or named with the reason they are not', () => {
    const unaccounted = commands.filter(
      (c) => !(opgenArgs(c.text) && !(c.text in NOT_RUN)) && !NEW_FOLDER.test(c.text) && !(c.text in NOT_RUN) && !(c.chapter in RUN_ELSEWHERE),
    );
    expect(unaccounted.map(where)).toEqual([]);
    const stale = Object.keys(NOT_RUN).filter((text) => !commands.some((c) => c.text === text));
    expect(stale, 'commands no longer in the book').toEqual([]);
  });

  // A chapter that does not start with `opgen init` continues Getting started's project.
  it.each(chapters.filter((c) => !(c in RUN_ELSEWHERE) && commands.some((k) => k.chapter === c && opgenArgs(k.text))))(
    '%s runs as written',
    async (chapter) => {
      const own = commands.filter((c) => c.chapter === chapter);
      const first = own.find((c) => opgenArgs(c.text));
      const startsFresh = opgenArgs(first!.text)![0] === 'init';
      const dir = await folder(NEW_FOLDER.exec(own[0]!.text)?.[1] ?? 'project');
      if (!startsFresh) expect(await runChapter(dir, 'getting-started.md')).toBeUndefined();
      expect(await runChapter(dir, chapter)).toBeUndefined();
    },
  );
});

describe("the options the book's prose names", () => {
  it.each(proseCommands())('exist: $chapter `$text`', async ({ command, options }) => {
    const { stdout, code } = await opgen(process.cwd(), ...command, '--help');
    expect(code).toBe(0);
    const listed = new Set([...stdout.matchAll(/(?<![\w-])(--[a-z][a-z-]*)/g)].map((m) => m[1]));
    expect(options.filter((o) => !listed.has(o) && !(o in NOT_AN_OPTION))).toEqual([]);
  });
});
