import { readFileSync } from 'node:fs';
import { packagedTemplatesWith } from '../../src/generators/scaffold/render.js';
import type { ScaffoldVersion } from '../../src/upgrade/scaffold-version.js';

// A scaffold version that is not a real release: today's with changes to files a user also
// edits (the Dockerfile, a controller, package.json, config/default), a file it adds, one it
// changes that users rarely touch, and one it no longer has. Tests upgrade to it so they do
// not depend on what the next release's scaffold will be.

const template = (name: string) => readFileSync(new URL(`../../src/templates/scaffold/${name}.hbs`, import.meta.url), 'utf8');

function edit(text: string, from: string, to: string): string {
  if (!text.includes(from)) throw new Error(`fixture scaffold: "${from}" is no longer in the template`);
  return text.replace(from, to);
}

export const fixtureVersion = '9.9.0';

/** The line of the Dockerfile both the fixture scaffold and a conflicting user edit change. */
export const envLine = 'ENV NODE_ENV=production';

export const fixtureScaffold: ScaffoldVersion = {
  version: fixtureVersion,
  templates: packagedTemplatesWith({
    'init/Dockerfile': edit(
      edit(template('init/Dockerfile'), envLine, 'ENV NODE_ENV=production NODE_OPTIONS=--enable-source-maps'),
      'RUN npm ci --ignore-scripts --no-audit --no-fund\n',
      'RUN npm ci --ignore-scripts --no-audit --no-fund --omit=optional\n',
    ),
    'init/dockerignore': `${template('init/dockerignore')}test/\n`,
    'api/controller.ts': edit(
      template('api/controller.ts'),
      '/finalizers,verbs=update\n',
      '/finalizers,verbs=update\n// +kubebuilder:rbac:groups=events.k8s.io,resources=events,verbs=create;patch\n',
    ),
  }),
  adjust: (files) => {
    const manifest = JSON.parse(files.get('package.json')!.content) as { scripts: Record<string, string> };
    manifest.scripts['lint:fix'] = 'eslint . --fix';
    files.set('package.json', { content: `${JSON.stringify(manifest, null, 2)}\n` });
    const kustomization = files.get('config/default/kustomization.yaml')!.content;
    files.set('config/default/kustomization.yaml', { content: edit(kustomization, '  - metrics_service.yaml\n', '  - metrics_service.yaml\n  - manager_config.yaml\n') });
    files.set('config/default/manager_config.yaml', { content: 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: manager-config\ndata:\n  logLevel: info\n' });
    files.delete('.github/workflows/lint.yml');
  },
};
