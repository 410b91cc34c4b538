import type { Command } from 'commander';
import { describe, expect, it } from 'vitest';
import { program } from '../../src/cli.js';
import { opgen } from './run.js';

function paths(command: Command, prefix: string[] = []): string[][] {
  return command.commands.flatMap((sub) => [[...prefix, sub.name()], ...paths(sub, [...prefix, sub.name()])]);
}

const cli = await program();

describe('--help', () => {
  it.each(paths(cli).map((path) => [path.join(' '), path]))('of opgen %s shows its flags and examples', async (_, path) => {
    const result = await opgen(process.cwd(), ...path, '--help');
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/^Usage: opgen /);
    expect(result.stdout).toMatch(/\nExamples?:\n( {2}.*\n)*? {2}\$ opgen /);
  });

  it('of create api lists every flag of the issue', async () => {
    const { stdout } = await opgen(process.cwd(), 'create', 'api', '--help');
    for (const flag of ['--group', '--version', '--kind', '--plural', '--namespaced', '--resource', '--no-resource', '--controller', '--no-controller', '--force', '--dry-run']) {
      expect(stdout).toContain(flag);
    }
  });

  it('of init lists every flag of the issue', async () => {
    const { stdout } = await opgen(process.cwd(), 'init', '--help');
    for (const flag of ['--domain', '--project-name', '--owner', '--license', '--namespaced', '--multigroup', '--runtime', '--skip-install', '--force', '--dry-run']) {
      expect(stdout).toContain(flag);
    }
  });
});
