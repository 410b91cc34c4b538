import { nodeVersions } from './node-versions.js';
import type { InitScaffold } from './init-scaffold.js';

const json = (value: unknown) => `${JSON.stringify(value, null, 2)}\n`;

/**
 * The project's package.json. Its scripts stand in for kubebuilder's Makefile targets;
 * none is named `install`, which npm would run on every `npm install`. Those that deploy run
 * the opgen commands (opgen is a dev dependency), so a fix to deploying reaches every
 * project with the next opgen, not only those scaffolded after it.
 */
export function packageJson(scaffold: InitScaffold): string {
  const { project } = scaffold;
  return json({
    name: project.projectName,
    version: '0.1.0',
    private: true,
    description: `Kubernetes operator for the ${project.domain} APIs, built with opgen`,
    ...(scaffold.license === 'apache2' ? { license: 'Apache-2.0' } : {}),
    ...(scaffold.owner ? { author: scaffold.owner } : {}),
    type: 'module',
    engines: { node: `>=${nodeVersions.minimum}` },
    scripts: {
      build: 'tsc -p tsconfig.build.json',
      start: 'npm run build && node dist/main.js',
      dev: 'opgen dev',
      test: 'opgen manifests && vitest run',
      'test:e2e': 'opgen manifests && vitest run --config vitest.e2e.config.ts',
      lint: 'eslint .',
      manifests: 'opgen manifests',
      'crds:install': 'opgen install',
      'crds:uninstall': 'opgen uninstall',
      deploy: 'opgen deploy',
      undeploy: 'opgen undeploy',
      'build-installer': 'opgen build-installer',
      'docker:build': 'docker build -t ${IMG:-controller:latest} .',
    },
    dependencies: { '@opgen/runtime': scaffold.runtimeSpec },
    devDependencies: sortKeys({ ...scaffold.devTools, opgen: scaffold.cliSpec }),
  });
}

/** tsconfig.json (editors and `tsc --noEmit`, tests included) and tsconfig.build.json (dist/, no tests). */
export function tsconfigFiles(): { path: string; content: string }[] {
  return [
    {
      path: 'tsconfig.json',
      content: json({
        compilerOptions: {
          target: 'ES2023',
          lib: ['ES2023'],
          module: 'NodeNext',
          moduleResolution: 'NodeNext',
          strict: true,
          noUncheckedIndexedAccess: true,
          esModuleInterop: true,
          skipLibCheck: true,
          forceConsistentCasingInFileNames: true,
          sourceMap: true,
          types: ['node'],
          rootDir: 'src',
          outDir: 'dist',
        },
        include: ['src'],
      }),
    },
    { path: 'tsconfig.build.json', content: json({ extends: './tsconfig.json', exclude: ['src/**/*.test.ts'] }) },
  ];
}

function sortKeys(record: Record<string, string>): Record<string, string> {
  return Object.fromEntries(Object.entries(record).sort(([a], [b]) => a.localeCompare(b)));
}
