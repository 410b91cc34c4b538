import { describe, expect, it } from 'vitest';
import { UserError, formatUserError } from '../../src/errors.js';
import type { ProjectConfig } from '../../src/project/model.js';
import { parseProject } from '../../src/project/parse.js';
import { serializeProject } from '../../src/project/serialize.js';

const project: ProjectConfig = {
  domain: 'civo.com',
  projectName: 'demo-volume-operator',
  multigroup: false,
  namespaced: false,
  extra: {},
  resources: [
    {
      group: 'storage',
      version: 'v1',
      kind: 'DemoVolume',
      domain: 'civo.com',
      plural: 'demovolumes',
      api: { crdVersion: 'v1', namespaced: true },
      path: 'src/api/v1',
      controller: true,
      extra: {},
    },
  ],
};

function errorOf(text: string): string {
  try {
    parseProject(text, 'PROJECT');
  } catch (error) {
    if (error instanceof UserError) return formatUserError(error);
    throw error;
  }
  throw new Error('parsed without an error');
}

describe('the PROJECT file', () => {
  it('reads back what it wrote, in kubebuilder\'s version "3" shape', () => {
    const text = serializeProject(project);
    expect(text).toContain('version: "3"\n');
    expect(text).toContain('projectName: demo-volume-operator\n');
    expect(parseProject(text, 'PROJECT')).toEqual(project);
  });

  it('keeps keys it does not know, such as another tool\'s plugins or a kind\'s webhooks', () => {
    const text = serializeProject(project)
      .replace('resources:', 'plugins:\n  helm.example.com/v1: {}\nresources:')
      .replace('    version: v1\n', '    version: v1\n    webhooks:\n      defaulting: true\n');
    const parsed = parseProject(text, 'PROJECT');
    expect(parsed.extra).toEqual({ plugins: { 'helm.example.com/v1': {} } });
    expect(parsed.resources[0]?.extra).toEqual({ webhooks: { defaulting: true } });
    expect(parseProject(serializeProject(parsed), 'PROJECT')).toEqual(parsed);
  });

  it.each([
    ['broken YAML', 'version: "3"\nlayout: [typescript.opgen.dev/v1\ndomain: x\n', /^PROJECT:\d+:\d+: error: corrupt PROJECT file: /],
    ['a list at the top', '- a\n- b\n', /^PROJECT:1:1: error: corrupt PROJECT file: expected a mapping/],
    ['another version', 'version: "2"\n', /^PROJECT:1:10: error: unsupported version "2", opgen reads version "3"$/],
    [
      'a kubebuilder Go project',
      'version: "3"\nlayout:\n- go.kubebuilder.io/v4\ndomain: x.io\n',
      /^PROJECT:3:1: error: layout go.kubebuilder.io\/v4 is not an opgen project/,
    ],
    ['no domain', 'version: "3"\nlayout: [typescript.opgen.dev/v1]\nprojectName: p\n', /^PROJECT:1:1: error: missing "domain"$/],
    [
      'an invalid domain',
      'version: "3"\nlayout: [typescript.opgen.dev/v1]\ndomain: Civo_Com\nprojectName: p\n',
      /^PROJECT:3:9: error: invalid domain "Civo_Com"/,
    ],
  ])('names the file, line and column of %s', (_, text, message) => {
    expect(errorOf(text)).toMatch(message);
  });

  it('points at the bad field of a resource', () => {
    const text = serializeProject(project).replace('kind: DemoVolume', 'kind: 3');
    const line = text.split('\n').findIndex((l) => l.includes('kind: 3')) + 1;
    expect(errorOf(text)).toBe(`PROJECT:${line}:11: error: "kind" must be a string`);
  });

  it('refuses a kind listed twice', () => {
    const text = serializeProject({ ...project, resources: [project.resources[0]!, project.resources[0]!] });
    expect(errorOf(text)).toMatch(/^PROJECT:\d+:5: error: storage\/v1 DemoVolume is listed twice$/);
  });
});
