import { execFileSync } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse, parseAllDocuments } from 'yaml';
import { opgen } from '../manifests/run.js';

const here = fileURLToPath(new URL('.', import.meta.url));

/** The controller-gen binary hack/controller-gen/build.sh built (or builds now, cold). */
export function controllerGenBinary(): string {
  const script = fileURLToPath(new URL('../../hack/controller-gen/build.sh', import.meta.url));
  return execFileSync('bash', [script], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] }).trim();
}

/**
 * The CRDs, by file name, that controller-gen writes for the Go packages `paths` of the Go
 * module test/conformance/<module> (`go`, or `go-cert-manager` whose module path is cert-manager's own).
 */
export function controllerGenCrds(binary: string, paths: string, module = 'go'): Map<string, unknown> {
  const out = mkdtempSync(join(tmpdir(), 'opgen-conformance-go-'));
  try {
    // Dangerous types are floats: the twins map TypeScript's `number` to Go's float64.
    execFileSync(binary, ['crd:allowDangerousTypes=true', `paths=${paths}`, `output:crd:artifacts:config=${out}`], {
      cwd: join(here, module),
      env: { ...process.env, GOFLAGS: '-mod=mod' },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    return readCrds(out);
  } finally {
    rmSync(out, { recursive: true, force: true });
  }
}

/** The CRDs, by file name, that `opgen manifests` writes for the project test/conformance/ts/<name>. */
export async function opgenCrds(name: string): Promise<Map<string, unknown>> {
  const dir = mkdtempSync(join(tmpdir(), `opgen-conformance-${name}-`));
  try {
    cpSync(join(here, 'ts', name), dir, { recursive: true });
    const run = await opgen('manifests', '--dir', dir);
    if (run.code !== 0) throw new Error(`opgen manifests failed for ${name}:\n${run.stderr}`);
    return readCrds(join(dir, 'config/crd/bases'));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

function readCrds(dir: string): Map<string, unknown> {
  const files = readdirSync(dir).filter((file) => file.endsWith('.yaml')).sort();
  return new Map(files.map((file) => [file, parse(readFileSync(join(dir, file), 'utf8')) as unknown]));
}

/** The webhook configurations, by `manifests.yaml:<kind>`, that `controller-gen webhook` writes for the Go packages `paths`. */
export function controllerGenWebhooks(binary: string, paths: string): Map<string, unknown> {
  const out = mkdtempSync(join(tmpdir(), 'opgen-conformance-go-webhooks-'));
  try {
    execFileSync(binary, ['webhook', `paths=${paths}`, `output:webhook:artifacts:config=${out}`], {
      cwd: join(here, 'go'),
      env: { ...process.env, GOFLAGS: '-mod=mod' },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    return readWebhooks(join(out, 'manifests.yaml'));
  } finally {
    rmSync(out, { recursive: true, force: true });
  }
}

/** The webhook configurations, by `manifests.yaml:<kind>`, that `opgen manifests` writes for test/conformance/ts/<name>. */
export async function opgenWebhooks(name: string): Promise<Map<string, unknown>> {
  const dir = mkdtempSync(join(tmpdir(), `opgen-conformance-${name}-`));
  try {
    cpSync(join(here, 'ts', name), dir, { recursive: true });
    const run = await opgen('manifests', '--dir', dir);
    if (run.code !== 0) throw new Error(`opgen manifests failed for ${name}:\n${run.stderr}`);
    return readWebhooks(join(dir, 'config/webhook/manifests.yaml'));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

function readWebhooks(file: string): Map<string, unknown> {
  const documents = parseAllDocuments(readFileSync(file, 'utf8')).map((d) => d.toJS() as { kind: string });
  return new Map(documents.map((d) => [`manifests.yaml:${d.kind}`, d]));
}
