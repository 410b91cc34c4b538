import { execFileSync } from 'node:child_process';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { runtimeKubernetesTypes } from '../../src/schema/runtime-kubernetes.js';
import { copyFixture, opgen } from '../manifests/run.js';
import { field } from './walk-helpers.js';

// The Kubernetes types of @opgen/runtime/api (PodTemplateSpec, Toleration, …) are generated
// from the pinned OpenAPI data, and `opgen manifests` reads each exactly as the
// @kubernetes/client-node model of the same type.

const generator = fileURLToPath(new URL('../../hack/api-types/generate.mjs', import.meta.url));

/** The schema of a field typed `type`, imported from `module` under that name. */
const fieldOf = (type: string, module: string) => field(type, '', `import type { ${type} } from '${module}';`);

describe('Kubernetes types of @opgen/runtime/api', () => {
  it('are what the generator writes from the pinned OpenAPI data', () => {
    expect(() => execFileSync(process.execPath, [generator, '--check'], { encoding: 'utf8', stdio: 'pipe' })).not.toThrow();
  });

  it.each([
    ['PodTemplateSpec', 'V1PodTemplateSpec'],
    ['JobTemplateSpec', 'V1JobTemplateSpec'],
    ['ResourceRequirements', 'V1ResourceRequirements'],
    ['Toleration', 'V1Toleration'],
    ['Container', 'V1Container'],
    ['Affinity', 'V1Affinity'],
    ['LabelSelector', 'V1LabelSelector'],
    ['Subject', 'RbacV1Subject'],
  ])('%s gives the schema of the client model %s', (name, model) => {
    const ours = fieldOf(name, '@opgen/runtime/api');
    const client = fieldOf(model, '@kubernetes/client-node');
    expect(ours.errors).toEqual([]);
    expect(client.errors).toEqual([]);
    expect(ours.schema).toEqual(client.schema);
    expect(ours.schema?.type).toBe('object');
  });

  it('every generated type has a schema, but the CustomResourceDefinition family, refused with a located error as controller-gen has none', () => {
    const broken = new Map<string, string[]>();
    for (const name of Object.keys(runtimeKubernetesTypes)) {
      const { schema, errors } = fieldOf(name, '@opgen/runtime/api');
      if (errors.length > 0 || !schema) broken.set(name, errors);
    }
    const outside = [...broken.keys()].filter((name) => !runtimeKubernetesTypes[name]!.startsWith('io.k8s.apiextensions-apiserver.'));
    expect(outside).toEqual([]);
    expect([...broken.keys()]).toEqual(expect.arrayContaining(['CustomResourceDefinition', 'JSONSchemaProps']));
    for (const [name, errors] of broken) {
      expect(errors, name).toEqual([expect.stringMatching(new RegExp(`^src/api/v1/\\w+\\.ts:\\d+:\\d+: error: no Kubernetes schema for ${name} \\(`))]);
    }
    expect(Object.keys(runtimeKubernetesTypes).length).toBeGreaterThan(100);
  });
});

describe('an API file importing @kubernetes/client-node', () => {
  const dirs: string[] = [];
  afterEach(() => {
    for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
  });

  /** The demovolume fixture with a client-node import in its types and the given package.json dependencies. */
  function project(dependencies: Record<string, string>): string {
    const dir = copyFixture('demovolume');
    dirs.push(dir);
    const types = join(dir, 'src/api/v1/demovolume_types.ts');
    const source = readFileSync(types, 'utf8').replace(
      "import { groupVersion } from './groupversion_info.js';",
      "import type {\n  V1Toleration,\n} from '@kubernetes/client-node';\nimport { groupVersion } from './groupversion_info.js';",
    );
    writeFileSync(types, source.replace('  size: int32;\n', '  size: int32;\n\n  tolerations?: V1Toleration[];\n'));
    writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: 'demo', dependencies }));
    return dir;
  }

  it('is refused at the import when the project does not depend on the package, and nothing is written', async () => {
    const dir = project({ '@opgen/runtime': '^0.1.0' });
    const result = await opgen('manifests', '--dir', dir);
    expect(result.code).toBe(1);
    expect(result.stderr).toBe(
      'src/api/v1/demovolume_types.ts:4:8: error: @kubernetes/client-node is imported but package.json does not depend on it ' +
        '(import the type from @opgen/runtime/api without the version prefix (PodTemplateSpec for V1PodTemplateSpec), or npm install @kubernetes/client-node)\n',
    );
    expect(() => readFileSync(join(dir, 'config/crd/bases/storage.example.com_demovolumes.yaml'))).toThrow();
  });

  it('is read as before when the project depends on it', async () => {
    const dir = project({ '@opgen/runtime': '^0.1.0', '@kubernetes/client-node': '^1.3.0' });
    const result = await opgen('manifests', '--dir', dir);
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    expect(readFileSync(join(dir, 'config/crd/bases/storage.example.com_demovolumes.yaml'), 'utf8')).toContain('tolerationSeconds:');
  });
});
