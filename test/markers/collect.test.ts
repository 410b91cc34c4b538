import { describe, expect, it } from 'vitest';
import { formatUserError } from '../../src/errors.js';
import { collectPackageMarkers } from '../../src/markers/collect.js';

const collect = (files: Record<string, string>) => collectPackageMarkers(new Map(Object.entries(files)));

describe('RBAC and webhook markers from every source file', () => {
  it('reads rbac markers in // and JSDoc comments, with their place', () => {
    const { rbac, errors } = collect({
      'src/controllers/a.ts': '// +kubebuilder:rbac:groups=apps,resources=deployments,verbs=get;list\nexport {};\n',
      'src/main.ts': '/**\n * Main.\n * +kubebuilder:rbac:groups="",resources=events,verbs=create,namespace=ops,roleName=events\n */\n/** +kubebuilder:rbac:urls=/metrics,verbs=get */\n',
    });
    expect(errors).toEqual([]);
    expect(rbac).toEqual([
      { groups: ['apps'], resources: ['deployments'], verbs: ['get', 'list'], location: { file: 'src/controllers/a.ts', line: 1, column: 4 } },
      { groups: [''], resources: ['events'], verbs: ['create'], namespace: 'ops', roleName: 'events', location: { file: 'src/main.ts', line: 3, column: 4 } },
      { urls: ['/metrics'], verbs: ['get'], location: { file: 'src/main.ts', line: 5, column: 5 } },
    ]);
  });

  it('reads webhook and webhook configuration markers', () => {
    const { webhooks, errors } = collect({
      'src/webhooks/w.ts':
        '// +kubebuilder:webhook:path=/validate-x,mutating=false,failurePolicy=fail,sideEffects=None,groups=g,resources=r,verbs=create;update,versions=v1,name=v.g.io,admissionReviewVersions=v1,timeoutSeconds=5\n// +kubebuilder:webhookconfiguration:mutating=false,name=vcfg\n',
    });
    expect(errors).toEqual([]);
    expect(webhooks).toEqual([
      {
        marker: 'webhook',
        mutating: false,
        failurePolicy: 'fail',
        sideEffects: 'None',
        groups: ['g'],
        resources: ['r'],
        verbs: ['create', 'update'],
        versions: ['v1'],
        name: 'v.g.io',
        admissionReviewVersions: ['v1'],
        path: '/validate-x',
        timeoutSeconds: 5,
        location: { file: 'src/webhooks/w.ts', line: 1, column: 4 },
      },
      { marker: 'webhookconfiguration', mutating: false, name: 'vcfg', location: { file: 'src/webhooks/w.ts', line: 2, column: 4 } },
    ]);
  });

  it('reads JSON selector and match condition arguments whole, commas and brackets in their strings included', () => {
    const selector = '{"matchExpressions": [{"key": "env", "operator": "In", "values": ["a", "b"]}]}';
    const conditions = '[{"name": "c", "expression": "\'}],\' != request.name"}]';
    const line = `// +kubebuilder:webhook:path=/v,mutating=false,failurePolicy=fail,namespaceSelector=${selector},matchConditions=${conditions},sideEffects=None,groups=g,resources=r,verbs=create,versions=v1,name=v.g.io,admissionReviewVersions=v1`;
    const { webhooks, errors } = collect({ 'src/w.ts': line });
    expect(errors).toEqual([]);
    expect(webhooks[0]).toMatchObject({
      sideEffects: 'None',
      namespaceSelector: { value: JSON.parse(selector), raw: selector, column: line.indexOf(selector) + 1 },
      matchConditions: { value: [{ name: 'c', expression: "'}],' != request.name" }], raw: conditions, column: line.indexOf(conditions) + 1 },
    });
  });

  it('rejects a JSON argument that is not closed or not JSON, at its place', () => {
    const head = '// +kubebuilder:webhook:path=/v,mutating=false,failurePolicy=fail,sideEffects=None,groups=g,resources=r,verbs=create,versions=v1,name=v.g.io,admissionReviewVersions=v1';
    const { errors } = collect({ 'src/w.ts': [`${head},objectSelector={"matchLabels": {"a": "b"}`, `${head},objectSelector={matchLabels: {}}`, `${head},objectSelector=app=web`].join('\n') });
    expect(errors.map((e) => [e.location?.line, e.location?.column, e.message])).toEqual([
      [1, head.length + 17, expect.stringContaining(': unclosed "{" in JSON')],
      [2, head.length + 17, expect.stringContaining(': invalid JSON: ')],
      [3, head.length + 17, expect.stringContaining(': expected a JSON object or array, found "app=web"')],
    ]);
  });

  it('rejects misspelt markers, rules without targets, and webhooks with both or neither of path and url', () => {
    const { errors } = collect({
      'src/controllers/a.ts': [
        '// +kubebuilder:rbca:groups=apps,resources=deployments,verbs=get',
        '// +kubebuilder:rbac:groups=apps,verbs=get',
        '// +kubebuilder:webhook:mutating=true,failurePolicy=fail,groups=g,resources=r,verbs=create,versions=v1,name=m.g.io,admissionReviewVersions=v1',
        '// +kubebuilder:validation:Minimum=1',
        '// +kubebuilder:scaffold:imports',
      ].join('\n'),
    });
    expect(errors.map(formatUserError)).toEqual([
      'src/controllers/a.ts:1:4: error: unknown marker +kubebuilder:rbca:groups (did you mean +kubebuilder:rbac?)',
      'src/controllers/a.ts:2:4: error: +kubebuilder:rbac names neither resources nor urls (add resources=<plural> (with groups=) or urls=/path)',
      expect.stringContaining('src/controllers/a.ts:3:4: error: +kubebuilder:webhook:mutating=true'),
      'src/controllers/a.ts:4:4: error: +kubebuilder:validation:Minimum=1 has no meaning outside src/api (put it above a type or property in src/api)',
    ]);
    expect(errors[2]!.message).toContain('needs exactly one of path and url');
  });

  it('refuses every marker opgen knows in a controller file, and leaves other tools\' markers alone', () => {
    const { errors } = collect({
      'src/controllers/b.ts': [
        '// +optional',
        '/** +listType=map */',
        '// +k8s:immutabel',
        '// +genclient',
        '// +k8s:deepcopy-gen=package',
        '// +build linux',
        '// +1 for this approach',
      ].join('\n'),
    });
    expect(errors.map(formatUserError)).toEqual([
      'src/controllers/b.ts:1:4: error: +optional has no meaning outside src/api (put it above a type or property in src/api)',
      'src/controllers/b.ts:2:5: error: +listType=map has no meaning outside src/api (put it above a type or property in src/api)',
      'src/controllers/b.ts:3:4: error: unknown marker +k8s:immutabel (did you mean +k8s:immutable?)',
    ]);
  });

  it('leaves the markers of API files to the type walker, except rbac and webhooks', () => {
    const { rbac, errors } = collect({
      'src/api/v1/t.ts': '// +kubebuilder:validation:Maximun=1\n// +kubebuilder:rbac:groups=g,resources=r,verbs=get\n',
    });
    expect(errors).toEqual([]);
    expect(rbac).toHaveLength(1);
  });
});
