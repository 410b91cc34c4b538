import { describe, expect, it } from 'vitest';
import { isScalar } from 'yaml';
import { UserError, formatUserError } from '../../src/errors.js';
import { addResources, removeListItems } from '../../src/generators/scaffold/config/kustomize.js';
import { addReplacements, removeConfigurations, removePatches, removeReplacements } from '../../src/generators/scaffold/config/webhook.js';

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

describe('removing kustomization entries', () => {
  const text = [
    '# mine',
    'resources:',
    '  - ../crd',
    '  # - ../prometheus',
    '  - ../webhook',
    'patches:',
    '  - path: manager_webhook_patch.yaml',
    '  - path: webhook_ca_injection_patch.yaml',
    '    target:',
    '      kind: CustomResourceDefinition',
    '  - path: my_patch.yaml # mine too',
    '',
  ].join('\n');

  it('cuts only the lines of the entries, keeping every other byte', () => {
    const patches = removePatches(text, [{ path: 'webhook_ca_injection_patch.yaml', target: { kind: 'CustomResourceDefinition' } }, 'manager_webhook_patch.yaml'], 'k.yaml');
    expect(removeListItems(patches, 'resources', (item) => isScalar(item) && item.value === '../webhook', 'k.yaml')).toBe(
      '# mine\nresources:\n  - ../crd\n  # - ../prometheus\npatches:\n  - path: my_patch.yaml # mine too\n',
    );
  });

  it('takes the key out with its last entry, and the blank line before the closing comment', () => {
    const closing = 'resources:\n  - ../crd\npatches:\n  - path: p.yaml\n\n# closing\n';
    expect(removePatches(closing, ['p.yaml'], 'k.yaml')).toBe('resources:\n  - ../crd\n# closing\n');
    const middle = 'patches:\n  - path: p.yaml\nconfigurations:\n  - c.yaml\n';
    expect(removePatches(middle, ['p.yaml'], 'k.yaml')).toBe('configurations:\n  - c.yaml\n');
    expect(removeConfigurations(middle, ['c.yaml'], 'k.yaml')).toBe('patches:\n  - path: p.yaml\n');
  });

  it('a list written on one line, and a patch of another target, which stays', () => {
    expect(removePatches('patches: [{path: p.yaml}, {path: q.yaml}]\n', ['p.yaml'], 'k.yaml')).toBe('patches: [ { path: q.yaml } ]\n');
    expect(removePatches(text, [{ path: 'webhook_ca_injection_patch.yaml', target: { kind: 'Deployment' } }], 'k.yaml')).toBe(text);
  });

  it('replacements opgen listed go, a replacement the user wrote inline stays', () => {
    const mine = 'replacements:\n  - source: { kind: ConfigMap, name: c, fieldPath: data.x }\n    targets:\n      - select: { kind: Deployment }\n        fieldPaths:\n          - spec.replicas\n';
    const both = addReplacements(mine, [{ path: 'webhook_replacements.yaml' }], 'k.yaml');
    expect(both).toBe(`${mine}  - path: webhook_replacements.yaml\n`);
    expect(addReplacements(both, [{ path: 'webhook_replacements.yaml' }], 'k.yaml')).toBe(both);
    expect(removeReplacements(both, [{ path: 'webhook_replacements.yaml' }], 'k.yaml')).toBe(mine);
    expect(removeReplacements('namespace: x\nreplacements:\n  - path: webhook_replacements.yaml\n', [{ path: 'webhook_replacements.yaml' }], 'k.yaml')).toBe('namespace: x\n');
  });

  it('refuses a corrupt kustomization, naming the line', () => {
    let error: unknown;
    try {
      removePatches('resources:\n  - a\npatches: [oops\n', ['p.yaml'], 'config/default/kustomization.yaml');
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(UserError);
    expect(formatUserError(error as UserError)).toMatch(/^config\/default\/kustomization\.yaml:[34]:\d+: error: corrupt kustomization: /);
  });
});
