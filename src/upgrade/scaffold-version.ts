import { readFileSync } from 'node:fs';
import { UserError } from '../errors.js';
import { webhookReadinessComment } from '../generators/scaffold/config/webhook.js';
import { networkPolicyKustomization, webhookPolicyPath, withoutWebhookPolicy } from '../generators/scaffold/config/webhook-network-policy.js';
import { packagedTemplates, packagedTemplatesWith, type Templates } from '../generators/scaffold/render.js';
import { projectFileName } from '../project/model.js';
import { cliVersion } from '../version.js';

/** One file of a rendered scaffold. */
export interface ScaffoldFile {
  content: string;
  executable?: boolean;
}

/** A whole project as some opgen scaffolded it, by path. */
export type ScaffoldFiles = Map<string, ScaffoldFile>;

/**
 * The scaffold of one opgen release: its template set, and what its generators wrote
 * differently from this opgen's (`adjust`, applied to the rendered whole). `opgen upgrade`
 * renders a project with the release the project has (the merge ancestor) and with the
 * running one, so no old opgen is downloaded.
 */
export interface ScaffoldVersion {
  version: string;
  templates: Templates;
  adjust?: (files: ScaffoldFiles) => void;
  /**
   * Files of this scaffold that a later one rewrote rather than changed: one the user
   * edited is kept as theirs (a merge of two rewrites is all conflict), and reported so.
   */
  rewrittenLater?: (path: string) => string | undefined;
}

/** The release a PROJECT without `cliVersion` was scaffolded by: the first one. */
export const firstRelease = '0.1.0';

/** The scaffold of the running opgen. */
export const currentScaffold: ScaffoldVersion = { version: cliVersion, templates: packagedTemplates };

const deployScript = 'scripts/deploy.mjs';
const releasesDir = new URL('../templates/releases/', import.meta.url);

const webhookPatch = 'config/default/manager_webhook_patch.yaml';
/** The workflows 0.1.0 wrote, kept as it wrote them under releases/0.1.0/workflows/. */
const workflows010 = ['lint.yml', 'test.yml', 'test-e2e.yml'];

/**
 * The webhook patch as 0.1.0 wrote it: no readiness probe of its own, so a manager with
 * conversion webhooks kept /readyz, which waits for caches that list through /convert.
 */
function withoutWebhookReadiness(text: string): string {
  const comment = new Set(webhookReadinessComment.map((line) => `# ${line}`));
  const lines = text.split('\n').filter((line) => !comment.has(line));
  const at = lines.findIndex((line) => /^\s*readinessProbe:$/.test(line));
  if (at < 0) return lines.join('\n');
  const indent = /^\s*/.exec(lines[at]!)![0].length;
  let end = at + 1;
  while (end < lines.length && /^\s*/.exec(lines[end]!)![0].length > indent && lines[end]!.trim() !== '') end++;
  lines.splice(at, end - at);
  return lines.join('\n');
}

/** 0.1.0's templates: today's, with those of the files whose scaffold changed since kept under releases/0.1.0/. Read on first use. */
let templates010: Templates | undefined;
const changedSince010 = ['api/controller.ts', 'api/controller.test.ts', 'api/foreign_controller.ts', 'api/types.ts', 'api/external_kind.ts', 'init/Dockerfile', 'init/dockerignore'];
function render010(name: string, data: object): string {
  templates010 ??= packagedTemplatesWith(Object.fromEntries(changedSince010.map((file) => [file, readFileSync(new URL(`0.1.0/${file}.hbs`, releasesDir), 'utf8')])));
  return templates010(name, data);
}

/**
 * 0.1.0's scaffold: today's, except that the deploy commands were a copied script,
 * scripts/deploy.mjs, that the npm scripts ran, that config/default's webhook patch left
 * the readiness probe at /readyz with conversion webhooks, and that controllers were
 * written in the request form (`reconcile(req, ctx)` reading their object with
 * `ctx.client.get`), `defineKind` named no scope, and the image and CI were not hardened:
 * `node:26-slim` by tag with an exclude-list .dockerignore; workflows without `permissions`,
 * with actions by tag, persisted checkout credentials and Node.js 20; no release workflow and
 * no Dependabot; `create webhook` wrote no network policy admitting the API server.
 */
const release010: ScaffoldVersion = {
  version: firstRelease,
  templates: render010,
  rewrittenLater: (path) =>
    /^src\/controllers\/.+_controller(\.test)?\.ts$/.test(path)
      ? 'you changed it, and the starter controller was rewritten in the object-first form since: it stays yours (the request form still compiles; see the CHANGELOG to move it)'
      : undefined,
  adjust: (files) => {
    const patch = files.get(webhookPatch);
    if (patch) files.set(webhookPatch, { content: withoutWebhookReadiness(patch.content) });
    files.set(deployScript, { content: readFileSync(new URL('0.1.0/deploy.mjs', releasesDir), 'utf8'), executable: true });
    for (const workflow of workflows010) files.set(`.github/workflows/${workflow}`, { content: readFileSync(new URL(`0.1.0/workflows/${workflow}`, releasesDir), 'utf8') });
    files.delete('.github/workflows/release.yml');
    files.delete('.github/dependabot.yml');
    if (files.delete(webhookPolicyPath)) {
      const kustomization = files.get(networkPolicyKustomization)!;
      files.set(networkPolicyKustomization, { content: withoutWebhookPolicy(kustomization.content) });
    }
    const manifest = files.get('package.json');
    if (!manifest) return;
    const json = JSON.parse(manifest.content) as { scripts: Record<string, string> };
    for (const script of ['crds:install', 'crds:uninstall', 'deploy', 'undeploy', 'build-installer']) {
      json.scripts[script] = `node ${deployScript} ${script}`;
    }
    files.set('package.json', { content: `${JSON.stringify(json, null, 2)}\n` });
  },
};

/** Releases whose scaffold differs from the running one's, by version. */
const keptReleases: ReadonlyMap<string, ScaffoldVersion> = new Map([[firstRelease, release010]]);

/**
 * The scaffold a project was made with, from PROJECT's `cliVersion`: the running one or this
 * opgen's packaged one when it matches, else a kept release; none recorded is the first release. A project of a newer opgen, or of a release whose
 * scaffold this opgen does not keep, is refused.
 */
export function scaffoldOf(recorded: string | undefined, running: ScaffoldVersion = currentScaffold): ScaffoldVersion {
  if (recorded === undefined) return keptReleases.get(firstRelease)!;
  if (compareVersions(recorded, running.version) > 0) {
    throw new UserError(
      `this project was scaffolded by opgen ${recorded}, newer than this opgen (${running.version}); nothing was written`,
      { file: projectFileName },
      `run a newer opgen: npx opgen@${recorded} upgrade`,
    );
  }
  if (recorded === running.version) return running;
  if (recorded === currentScaffold.version) return currentScaffold;
  const kept = keptReleases.get(recorded);
  if (kept) return kept;
  throw new UserError(
    `opgen ${running.version} does not know the scaffold of opgen ${recorded}, which made this project; nothing was written`,
    { file: projectFileName },
    `upgrade with the opgen that made it first (npx opgen@${recorded} upgrade), or record the nearest release in PROJECT's cliVersion`,
  );
}

/** Orders `major.minor.patch[-pre]` versions; a pre-release comes before its release. */
export function compareVersions(a: string, b: string): number {
  const parse = (v: string) => {
    const [core, pre] = v.split('-', 2) as [string, string | undefined];
    return { parts: core.split('.').map(Number), pre };
  };
  const x = parse(a);
  const y = parse(b);
  for (let i = 0; i < 3; i++) {
    const d = (x.parts[i] ?? 0) - (y.parts[i] ?? 0);
    if (d !== 0) return Math.sign(d);
  }
  if (x.pre === y.pre) return 0;
  if (x.pre === undefined) return 1;
  if (y.pre === undefined) return -1;
  return x.pre < y.pre ? -1 : 1;
}
