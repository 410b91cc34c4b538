import { describe, expect, it } from 'vitest';
import { UserError, formatUserError } from '../../src/errors.js';
import { addResources } from '../../src/generators/scaffold/config/kustomize.js';

describe('adding kustomization entries', () => {
  it('appends what is missing and keeps the user\'s comments, entries and keys', () => {
    const text = '# mine\nresources:\n  - role.yaml\n  # - disabled.yaml\n  - extra.yaml\npatches:\n  - path: p.yaml\n';
    expect(addResources(text, ['role.yaml', 'a_role.yaml'], 'k.yaml')).toBe(
      '# mine\nresources:\n  - role.yaml\n  # - disabled.yaml\n  - extra.yaml\n  - a_role.yaml\npatches:\n  - path: p.yaml\n',
    );
  });

  it('returns the text untouched when every entry is there', () => {
    const text = 'resources: [a.yaml,   b.yaml]   # as the user wrote it\n';
    expect(addResources(text, ['b.yaml'], 'k.yaml')).toBe(text);
  });

  it('turns an empty list, or none, into a block list', () => {
    expect(addResources('resources: []\n', ['a.yaml'], 'k.yaml')).toBe('resources:\n  - a.yaml\n');
    expect(addResources('resources:\n', ['a.yaml'], 'k.yaml')).toBe('resources:\n  - a.yaml\n');
    expect(addResources('namespace: x\n', ['a.yaml'], 'k.yaml')).toBe('namespace: x\nresources:\n  - a.yaml\n');
  });

  it('refuses resources that are not a list, naming the line', () => {
    let error: unknown;
    try {
      addResources('namespace: x\nresources: a.yaml\n', ['b.yaml'], 'config/crd/kustomization.yaml');
    } catch (e) {
      error = e;
    }
    expect(formatUserError(error as UserError)).toBe('config/crd/kustomization.yaml:2:12: error: "resources" must be a list');
  });
});
