import type { RequestListener } from 'node:http';

/** A health or readiness check: throw (or reject) to report failure; the message is shown. */
export type Check = () => void | Promise<void>;

/** Named checks behind one endpoint. */
export type Checks = Map<string, Check>;

async function runChecks(checks: Checks): Promise<string[]> {
  const failures: string[] = [];
  for (const [name, check] of checks) {
    try {
      await check();
    } catch (error) {
      failures.push(`[-]${name} failed: ${error instanceof Error ? error.message : String(error)}`);
    }
  }
  return failures;
}

/**
 * `/healthz` and `/readyz` as controller-runtime serves them: `200 ok` when every check
 * passes, `500` listing the failed ones otherwise; `/healthz/<name>` runs one check. Once
 * `stopping` aborts, `/readyz` and each `/readyz/<name>` fail: the Service takes the
 * replica out of its endpoints while it still serves what it has.
 */
export function probesHandler(endpoints: { healthz: Checks; readyz: Checks; stopping?: AbortSignal }): RequestListener {
  return (request, response) => {
    const path = new URL(request.url ?? '/', 'http://probe').pathname;
    const [, endpoint, only] = /^\/(healthz|readyz)(?:\/([^/]+))?\/?$/.exec(path) ?? [];
    if (endpoint !== 'healthz' && endpoint !== 'readyz') {
      response.writeHead(404, { 'content-type': 'text/plain; charset=utf-8' }).end('404 page not found\n');
      return;
    }
    const all = endpoints[endpoint];
    let checks = all;
    if (only !== undefined) {
      const check = all.get(only);
      if (!check) {
        response.writeHead(404, { 'content-type': 'text/plain; charset=utf-8' }).end(`no ${endpoint} check named ${only}\n`);
        return;
      }
      checks = new Map([[only, check]]);
    }
    void runChecks(checks).then((checked) => {
      const failures = endpoint === 'readyz' && endpoints.stopping?.aborted ? ['[-]shutdown failed: the process is shutting down', ...checked] : checked;
      response.setHeader('content-type', 'text/plain; charset=utf-8');
      response.setHeader('x-content-type-options', 'nosniff');
      if (failures.length === 0) response.writeHead(200).end('ok');
      else response.writeHead(500).end(`${failures.join('\n')}\n${endpoint} check failed\n`);
    });
  };
}
