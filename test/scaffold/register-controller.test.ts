import { describe, expect, it } from 'vitest';
import { UserError, formatUserError } from '../../src/errors.js';
import { registerController } from '../../src/generators/scaffold/register-controller.js';

const main = `import { createManager, managerOptionsFromArgs } from '@opgen/runtime';

const mgr = createManager({ ...managerOptionsFromArgs(process.argv.slice(2)) });

// opgen:scaffold:controllers (opgen create api registers each new controller above this line)

await mgr.start();
`;

const demoVolume = {
  setupFunction: 'setupDemoVolumeController',
  module: './controllers/demovolume_controller.js',
  alias: 'setupStorageDemoVolumeController',
};

describe('registerController', () => {
  it('imports the setup function and calls it just above the marker, leaving the rest as it was', () => {
    expect(registerController(main, demoVolume)).toBe(`import { createManager, managerOptionsFromArgs } from '@opgen/runtime';
import { setupDemoVolumeController } from './controllers/demovolume_controller.js';

const mgr = createManager({ ...managerOptionsFromArgs(process.argv.slice(2)) });

setupDemoVolumeController(mgr);
// opgen:scaffold:controllers (opgen create api registers each new controller above this line)

await mgr.start();
`);
  });

  it('is idempotent, and keeps controllers in the order they were added', () => {
    const podSet = { setupFunction: 'setupPodSetController', module: './controllers/podset_controller.js', alias: 'x' };
    const once = registerController(registerController(main, demoVolume), podSet);
    expect(registerController(registerController(once, demoVolume), podSet)).toBe(once);
    expect(once.indexOf('setupDemoVolumeController(mgr)')).toBeLessThan(once.indexOf('setupPodSetController(mgr)'));
    expect(once.match(/^import /gm)).toHaveLength(3);
  });

  it('keeps what the user changed and does not repeat an import under another quote style or extension', () => {
    const edited = main
      .replace("from '@opgen/runtime'", 'from "@opgen/runtime"')
      .replace('\nconst mgr', '\nimport { setupDemoVolumeController } from "./controllers/demovolume_controller";\n// my comment\nconst mgr');
    const out = registerController(edited, demoVolume);
    expect(out).toBe(edited.replace('// opgen:scaffold', 'setupDemoVolumeController(mgr);\n// opgen:scaffold'));
  });

  it('uses the alias when the name is taken by the same kind of another group', () => {
    const first = registerController(main, { ...demoVolume, module: './controllers/ship/demovolume_controller.js' });
    const second = registerController(first, { ...demoVolume, module: './controllers/storage/demovolume_controller.js' });
    expect(second).toContain(
      "import { setupDemoVolumeController as setupStorageDemoVolumeController } from './controllers/storage/demovolume_controller.js';",
    );
    expect(second).toContain('setupDemoVolumeController(mgr);\nsetupStorageDemoVolumeController(mgr);\n// opgen:scaffold');
  });

  it('finds the marker inside a function, with its indentation', () => {
    const wrapped = `import { createManager } from '@opgen/runtime';

async function run(): Promise<void> {
  const mgr = createManager({});
  // opgen:scaffold:controllers
  await mgr.start();
}

await run();
`;
    expect(registerController(wrapped, demoVolume)).toContain(
      '  const mgr = createManager({});\n  setupDemoVolumeController(mgr);\n  // opgen:scaffold:controllers\n',
    );
  });

  it('fails, naming the file, when the marker is gone', () => {
    const withoutMarker = main.replace(/\/\/ opgen:scaffold.*\n/, '');
    let error: unknown;
    try {
      registerController(withoutMarker, demoVolume);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(UserError);
    expect(formatUserError(error as UserError)).toMatch(
      /^src\/main\.ts: error: no "\/\/ opgen:scaffold:controllers" line to register setupDemoVolumeController at/,
    );
  });
});
