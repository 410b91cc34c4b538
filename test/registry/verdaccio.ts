import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { mkdir, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { freePort } from '@opgen/runtime/testing';

/** A verdaccio registry on loopback, its storage and config in a directory of the caller's. */
export interface Registry {
  /** `http://127.0.0.1:<port>/` */
  url: string;
  /** A user config (.npmrc) naming only this registry, with a token that may publish. */
  userconfig: string;
  stop(): Promise<void>;
}

const verdaccioBin = join(createRequire(import.meta.url).resolve('verdaccio/package.json'), '..', 'bin', 'verdaccio');

/**
 * Starts verdaccio in `dir`. opgen's own packages are served only from what is published
 * to it (the names on the public registry are not consulted); everything else is proxied
 * from `uplink`, the registry npm is configured with, as a user's private registry would.
 */
export async function startRegistry(dir: string, uplink: string): Promise<Registry> {
  await mkdir(join(dir, 'storage'), { recursive: true });
  const port = await freePort();
  const url = `http://127.0.0.1:${port}/`;
  const config = join(dir, 'config.yaml');
  await writeFile(config, verdaccioConfig(dir, uplink));

  const output: string[] = [];
  const child = spawn(process.execPath, [verdaccioBin, '--config', config, '--listen', `127.0.0.1:${port}`], {
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, NO_COLOR: '1' },
  });
  for (const stream of [child.stdout, child.stderr]) stream.on('data', (chunk: Buffer) => output.push(chunk.toString()));
  const stop = () => stopChild(child);

  try {
    await waitUntilUp(url, child, output);
    const token = await addUser(url);
    const userconfig = join(dir, 'npmrc');
    await writeFile(userconfig, `registry=${url}\n//127.0.0.1:${port}/:_authToken=${token}\n`);
    return { url, userconfig, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}

function verdaccioConfig(dir: string, uplink: string): string {
  const own = { access: '$all', publish: '$authenticated' };
  return JSON.stringify({
    storage: join(dir, 'storage'),
    auth: { htpasswd: { file: join(dir, 'htpasswd'), max_users: 1 } },
    uplinks: { upstream: { url: uplink, timeout: '120s', max_fails: 5 } },
    packages: {
      opgen: own,
      '@opgen/*': own,
      '**': { access: '$all', publish: '$authenticated', proxy: 'upstream' },
    },
    web: { enable: false },
    max_body_size: '100mb',
    log: { type: 'stdout', format: 'pretty', level: 'warn' },
  });
}

async function waitUntilUp(url: string, child: ChildProcess, output: string[]): Promise<void> {
  for (;;) {
    if (child.exitCode !== null) throw new Error(`verdaccio exited (${child.exitCode}) before it listened:\n${output.join('')}`);
    try {
      if ((await fetch(new URL('-/ping', url))).ok) return;
    } catch {
      // Not listening yet.
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

/** What `npm adduser` does: registers a user and returns its token. */
async function addUser(url: string): Promise<string> {
  const name = 'opgen-release';
  const response = await fetch(new URL(`-/user/org.couchdb.user:${name}`, url), {
    method: 'PUT',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ name, password: 'release-test-only' }),
  });
  const body = (await response.json()) as { token?: string; error?: string };
  if (!response.ok || !body.token) throw new Error(`verdaccio refused the user: ${response.status} ${body.error ?? ''}`);
  return body.token;
}

async function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = once(child, 'exit');
  child.kill('SIGTERM');
  await exited;
}
