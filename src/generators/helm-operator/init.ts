import { isMap, isSeq, parseAllDocuments, type YAMLMap } from 'yaml';
import { imageContext, initFiles, leaderElectionId } from '../scaffold/init.js';
import type { InitScaffold } from '../scaffold/init-scaffold.js';
import { render } from '../scaffold/render.js';
import { yamlFile } from '../scaffold/yaml-file.js';
import type { GeneratedFile } from '../../writer/index.js';
import { chartsDir, watchesFile } from './plugin.js';

/**
 * What `opgen init --plugins helm-operator` scaffolds: the TypeScript project `init` writes,
 * with a main.ts that runs watches.yaml instead of hand-written controllers, an image that
 * ships helm and the charts, and a writable /tmp for helm in the manager's pod.
 * `opgen manifests` has no types to read here: `create api --helm-chart` writes the CRDs
 * and the manager's role.
 */
export function helmOperatorInitFiles(scaffold: InitScaffold): GeneratedFile[] {
  const { project } = scaffold;
  const boilerplate = initFiles(scaffold).find((f) => f.path === 'hack/boilerplate.txt')?.content ?? '';
  const header = boilerplate ? `${boilerplate.trimEnd()}\n\n` : '';
  const replaced: Record<string, (file: GeneratedFile) => GeneratedFile> = {
    'src/main.ts': (f) => ({ ...f, content: render('helm-operator/main.ts', { header, namespaced: project.namespaced, leaderElectionId: leaderElectionId(project) }) }),
    Dockerfile: (f) => ({ ...f, content: render('helm-operator/Dockerfile', {}) }),
    '.dockerignore': (f) => ({ ...f, content: render('init/dockerignore', { include: [...imageContext, watchesFile, `${chartsDir}/`] }) }),
    'package.json': (f) => ({ ...f, content: helmScripts(f.content) }),
    'config/manager/manager.yaml': (f) => ({ ...f, content: withTmpVolume(f.content) }),
    '.github/workflows/lint.yml': (f) => ({ ...f, content: withoutManifestsCheck(f.content) }),
    '.github/workflows/test-e2e.yml': (f) => ({ ...f, content: withHelm(f.content) }),
    'config/rbac/kustomization.yaml': (f) => ({ ...f, content: chartRoleComment(f.content) }),
    'README.md': (f) => ({ ...f, content: render('helm-operator/README.md', { projectName: project.projectName, domain: project.domain }) }),
  };
  return [
    ...initFiles(scaffold).map((file) => replaced[file.path]?.(file) ?? file),
    {
      path: watchesFile,
      content: yamlFile(
        ['Kinds reconciled with a Helm chart, in operator-sdk\'s format: `opgen create api --helm-chart` adds an entry.', `Charts live in ${chartsDir}/; each CR's spec is its chart's values (overrideValues win).`],
        [],
      ),
      ownership: 'once',
    },
    { path: `${chartsDir}/.gitkeep`, content: '', ownership: 'once' },
  ];
}

/** No `opgen manifests` before the tests: a chart-backed project has no types to read. */
function helmScripts(text: string): string {
  const manifest = JSON.parse(text) as { scripts: Record<string, string> };
  const { manifests: _dropped, ...scripts } = manifest.scripts;
  void _dropped;
  scripts.test = 'vitest run';
  scripts['test:e2e'] = 'vitest run --config vitest.e2e.config.ts';
  return `${JSON.stringify({ ...manifest, scripts }, null, 2)}\n`;
}

/** helm writes its values file to /tmp; the manager's root filesystem is read-only. */
function withTmpVolume(text: string): string {
  const docs = parseAllDocuments(text);
  if (!Array.isArray(docs)) throw new Error('config/manager/manager.yaml: not YAML');
  for (const doc of docs) {
    if (doc.get('kind') !== 'Deployment') continue;
    const spec = doc.getIn(['spec', 'template', 'spec'], true) as YAMLMap;
    const containers = spec.get('containers', true);
    if (!isSeq(containers)) throw new Error('config/manager/manager.yaml: the Deployment has no containers');
    for (const container of containers.items) {
      if (isMap(container) && container.get('name') === 'manager') container.set('volumeMounts', doc.createNode([{ name: 'tmp', mountPath: '/tmp' }]));
    }
    spec.set('volumes', doc.createNode([{ name: 'tmp', emptyDir: {} }]));
  }
  return docs.map((doc) => doc.toString({ lineWidth: 0, indentSeq: true })).join('');
}

/** The lint workflow without `opgen manifests --check`: no types here, the CRDs come from the charts. */
function withoutManifestsCheck(text: string): string {
  const step = /\n {6}- name: Check that the manifests are up to date[^\n]*\n {8}run: npx opgen manifests --check/;
  if (!step.test(text)) throw new Error('lint.yml: the manifests check step moved; update helm-operator/init.ts');
  return text.replace(step, '');
}

/** The e2e workflow with helm installed from its Go module before the tests: the operator renders with it. */
function withHelm(text: string): string {
  const anchor = '      - name: Install the dependencies\n';
  if (!text.includes(anchor)) throw new Error('test-e2e.yml: the install step moved; update helm-operator/init.ts');
  const step = [
    '      - name: Install helm (the operator renders its charts with it)',
    '        run: GOBIN="$HOME/.local/bin" go install helm.sh/helm/v4/cmd/helm@v4.3.1 && echo "HELM=$HOME/.local/bin/helm" >> "$GITHUB_ENV"',
    '',
  ].join('\n');
  return text.replace(anchor, step + anchor);
}

/** The RBAC kustomization's comment, saying who writes the manager's role here. */
function chartRoleComment(text: string): string {
  const said = "# RBAC of the manager: its service account, its role (written by `opgen manifests` from the\n# controllers' +kubebuilder:rbac markers),";
  if (!text.includes(said)) throw new Error('config/rbac/kustomization.yaml: its comment changed; update helm-operator/init.ts');
  return text.replace(said, '# RBAC of the manager: its service account, its role (written by `opgen create api --helm-chart`\n# for what the charts render),');
}
