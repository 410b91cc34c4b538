import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { expect, vi } from 'vitest';
import { runUpgrade, type UpgradeOptions } from '../../src/commands/upgrade.js';
import { formatUserError, UserError, UserErrors } from '../../src/errors.js';
import type { ScaffoldVersion } from '../../src/upgrade/scaffold-version.js';
import type { RunResult } from '../scaffold/run.js';

/** `opgen upgrade` to `version`'s scaffold, in-process, as the CLI reports it (exit 1 and one line for a user error). */
export async function upgradeTo(dir: string, version: ScaffoldVersion, options: UpgradeOptions = {}): Promise<RunResult> {
  const stdout: string[] = [];
  const stderr: string[] = [];
  const out = vi.spyOn(process.stdout, 'write').mockImplementation((chunk: string | Uint8Array) => {
    stdout.push(String(chunk));
    return true;
  });
  const err = vi.spyOn(process.stderr, 'write').mockImplementation((chunk: string | Uint8Array) => {
    stderr.push(String(chunk));
    return true;
  });
  try {
    await runUpgrade(dir, options, version);
    return { code: 0, stdout: stdout.join(''), stderr: stderr.join('') };
  } catch (error) {
    if (error instanceof UserErrors) return { code: 1, stdout: stdout.join(''), stderr: stderr.join('') + error.message };
    if (!(error instanceof UserError)) throw error;
    return { code: 1, stdout: stdout.join(''), stderr: stderr.join('') + formatUserError(error) };
  } finally {
    out.mockRestore();
    err.mockRestore();
  }
}

/** Replaces `from` by `to` in the project's file `path`, failing when `from` is not there. */
export async function editFile(dir: string, path: string, from: string, to: string): Promise<void> {
  const text = await readFile(join(dir, path), 'utf8');
  expect(text, `${path} should contain ${from}`).toContain(from);
  await writeFile(join(dir, path), text.replace(from, to));
}

/** The controller of the kind Widget the upgrade tests scaffold. */
export const controller = 'src/controllers/widget_controller.ts';

/**
 * What a user changes in a project with the kind Widget: controller logic, a dependency and a
 * script in package.json, a patch of their own in config/default.
 */
export async function applyUserEdits(dir: string): Promise<void> {
  await editFile(dir, controller, '      // Your logic goes here.', "      ctx.log.info('reconciling Widget, counting its gadgets');\n      // Your logic goes here.");
  await editFile(dir, 'package.json', '"@opgen/runtime": "^0.1.0"', '"@opgen/runtime": "^0.1.0",\n    "yaml": "^2.9.1"');
  await editFile(dir, 'package.json', '"build": "tsc -p tsconfig.build.json",', '"build": "tsc -p tsconfig.build.json",\n    "smoke": "node dist/main.js --help",');
  await writeFile(join(dir, 'config/default/manager_resources_patch.yaml'), 'apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: controller-manager\n');
  const kustomization = await readFile(join(dir, 'config/default/kustomization.yaml'), 'utf8');
  await writeFile(join(dir, 'config/default/kustomization.yaml'), `${kustomization}patches:\n  - path: manager_resources_patch.yaml\n`);
}
