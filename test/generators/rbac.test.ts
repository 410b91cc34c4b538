import { parseAllDocuments } from 'yaml';
import { describe, expect, it } from 'vitest';
import { UserErrors } from '../../src/errors.js';
import { generateRbac } from '../../src/generators/rbac.js';
import type { RbacMarker } from '../../src/markers/types.js';
import { generatedHeader } from '../../src/yaml.js';

let line = 0;
/** A marker as the parser produces it: `groups/resources/verbs` written `a;b`. */
function rbac(fields: { groups?: string; resources?: string; names?: string; verbs: string; urls?: string; namespace?: string; roleName?: string }): RbacMarker {
  const list = (value: string | undefined) => (value === undefined ? undefined : value.split(';').map((v) => v.replace(/^""$/, '')));
  return {
    ...(fields.groups !== undefined ? { groups: list(fields.groups) } : {}),
    ...(fields.resources !== undefined ? { resources: list(fields.resources) } : {}),
    ...(fields.names !== undefined ? { resourceNames: list(fields.names) } : {}),
    ...(fields.urls !== undefined ? { urls: list(fields.urls) } : {}),
    ...(fields.namespace !== undefined ? { namespace: fields.namespace } : {}),
    ...(fields.roleName !== undefined ? { roleName: fields.roleName } : {}),
    verbs: list(fields.verbs) as string[],
    location: { file: 'src/controllers/demo_controller.ts', line: ++line, column: 4 },
  };
}

function roles(markers: RbacMarker[], options = {}): unknown[] {
  const [file] = generateRbac(markers, options);
  return parseAllDocuments(file?.content ?? '').map((d) => d.toJS());
}

describe('generateRbac', () => {
  it('merges and sorts rules exactly as controller-gen does (its own test data)', () => {
    // controller-tools pkg/rbac/testdata: the markers and the role.yaml controller-gen writes for them.
    const markers = [
      rbac({ groups: 'batch.io', resources: 'cronjobs', verbs: 'get;watch;create' }),
      rbac({ groups: 'batch.io', resources: 'cronjobs/status', verbs: 'get;update;patch' }),
      rbac({ groups: 'art', resources: 'jobs', verbs: 'get' }),
      rbac({ groups: 'wave', resources: 'jobs', verbs: 'get', namespace: 'zoo' }),
      rbac({ groups: 'batch;batch;batch', resources: 'jobs/status', verbs: 'watch' }),
      rbac({ groups: 'batch;cron', resources: 'jobs/status', verbs: 'create;get' }),
      rbac({ groups: 'art', resources: 'jobs', verbs: 'get', namespace: 'zoo' }),
      rbac({ groups: 'cron;batch', resources: 'jobs/status', verbs: 'get;create' }),
      rbac({ groups: 'batch', resources: 'jobs/status', verbs: 'watch;watch' }),
      rbac({ groups: 'art', resources: 'jobs', verbs: 'get', namespace: 'park' }),
      rbac({ groups: 'batch.io', resources: 'cronjobs', names: 'foo;bar;baz', verbs: 'get;watch' }),
      rbac({ groups: 'deduplicate-verbs', resources: 'some', verbs: 'get;list' }),
      rbac({ groups: 'deduplicate-verbs', resources: 'some', verbs: 'get' }),
      rbac({ groups: 'deduplicate-verbs', resources: 'some', verbs: 'list' }),
      rbac({ groups: 'deduplicate-resources', resources: 'one', verbs: 'create' }),
      rbac({ groups: 'deduplicate-resources', resources: 'two', verbs: 'create' }),
      rbac({ groups: 'deduplicate-resources', resources: 'three', verbs: 'create' }),
      rbac({ groups: 'deduplicate-groups1', resources: 'foo', verbs: 'patch' }),
      rbac({ groups: 'deduplicate-groups2', resources: 'foo', verbs: 'patch' }),
      rbac({ groups: 'deduplicate-groups3', resources: 'foo', verbs: 'patch' }),
      rbac({ groups: 'deduplicate-all', resources: 'foo;bar', verbs: 'get;list' }),
      rbac({ groups: 'deduplicate-all', resources: 'foo', verbs: 'get' }),
      rbac({ groups: 'deduplicate-all', resources: 'bar', verbs: 'list' }),
      rbac({ groups: 'deduplicate-all-group', resources: 'foo;bar', verbs: 'get;list' }),
      rbac({ groups: 'not-deduplicate-resources', resources: 'some', verbs: 'get' }),
      rbac({ groups: 'not-deduplicate-resources', resources: 'another', verbs: 'list' }),
      rbac({ groups: 'not-deduplicate-groups1', resources: 'some', verbs: 'get' }),
      rbac({ groups: 'not-deduplicate-groups2', resources: 'some', verbs: 'list' }),
      rbac({ urls: '/url-to-duplicate', verbs: 'get' }),
      rbac({ urls: '/another/url-to-duplicate', verbs: 'get' }),
      rbac({ groups: 'core', resources: 'deduplicate', verbs: 'list' }),
      rbac({ groups: '""', resources: 'me', verbs: 'list' }),
      rbac({ groups: 'core;"";some-other-to-deduplicate-with-core', resources: 'me', verbs: 'list;get' }),
    ];
    expect(roles(markers)).toEqual([
      {
        apiVersion: 'rbac.authorization.k8s.io/v1',
        kind: 'ClusterRole',
        metadata: { name: 'manager-role' },
        rules: [
          { nonResourceURLs: ['/another/url-to-duplicate', '/url-to-duplicate'], verbs: ['get'] },
          { apiGroups: [''], resources: ['deduplicate', 'me'], verbs: ['list'] },
          { apiGroups: ['', 'some-other-to-deduplicate-with-core'], resources: ['me'], verbs: ['get', 'list'] },
          { apiGroups: ['art'], resources: ['jobs'], verbs: ['get'] },
          { apiGroups: ['batch'], resources: ['jobs/status'], verbs: ['watch'] },
          { apiGroups: ['batch', 'cron'], resources: ['jobs/status'], verbs: ['create', 'get'] },
          { apiGroups: ['batch.io'], resources: ['cronjobs'], verbs: ['create', 'get', 'watch'] },
          { apiGroups: ['batch.io'], resourceNames: ['bar', 'baz', 'foo'], resources: ['cronjobs'], verbs: ['get', 'watch'] },
          { apiGroups: ['batch.io'], resources: ['cronjobs/status'], verbs: ['get', 'patch', 'update'] },
          { apiGroups: ['deduplicate-all', 'deduplicate-all-group'], resources: ['bar', 'foo'], verbs: ['get', 'list'] },
          { apiGroups: ['deduplicate-groups1', 'deduplicate-groups2', 'deduplicate-groups3'], resources: ['foo'], verbs: ['patch'] },
          { apiGroups: ['deduplicate-resources'], resources: ['one', 'three', 'two'], verbs: ['create'] },
          { apiGroups: ['deduplicate-verbs'], resources: ['some'], verbs: ['get', 'list'] },
          { apiGroups: ['not-deduplicate-groups1', 'not-deduplicate-resources'], resources: ['some'], verbs: ['get'] },
          { apiGroups: ['not-deduplicate-groups2'], resources: ['some'], verbs: ['list'] },
          { apiGroups: ['not-deduplicate-resources'], resources: ['another'], verbs: ['list'] },
        ],
      },
      {
        apiVersion: 'rbac.authorization.k8s.io/v1',
        kind: 'Role',
        metadata: { name: 'manager-role', namespace: 'park' },
        rules: [{ apiGroups: ['art'], resources: ['jobs'], verbs: ['get'] }],
      },
      {
        apiVersion: 'rbac.authorization.k8s.io/v1',
        kind: 'Role',
        metadata: { name: 'manager-role', namespace: 'zoo' },
        rules: [{ apiGroups: ['art', 'wave'], resources: ['jobs'], verbs: ['get'] }],
      },
    ]);
  });

  it('writes the file controller-gen would, byte for byte apart from the header', () => {
    const [file] = generateRbac([
      rbac({ groups: 'storage.example.com', resources: 'demovolumes', verbs: 'get;list;watch;create;update;patch;delete' }),
      rbac({ groups: 'storage.example.com', resources: 'demovolumes/status', verbs: 'get;update;patch' }),
      rbac({ groups: 'core', resources: 'persistentvolumeclaims', verbs: 'get;list;watch;create' }),
    ]);
    expect(file).toMatchObject({ path: 'config/rbac/role.yaml', ownership: 'generated' });
    expect(file?.content).toBe(
      [
        `# ${generatedHeader}`,
        '---',
        'apiVersion: rbac.authorization.k8s.io/v1',
        'kind: ClusterRole',
        'metadata:',
        '  name: manager-role',
        'rules:',
        '  - apiGroups:',
        '      - ""',
        '    resources:',
        '      - persistentvolumeclaims',
        '    verbs:',
        '      - create',
        '      - get',
        '      - list',
        '      - watch',
        '  - apiGroups:',
        '      - storage.example.com',
        '    resources:',
        '      - demovolumes',
        '    verbs:',
        '      - create',
        '      - delete',
        '      - get',
        '      - list',
        '      - patch',
        '      - update',
        '      - watch',
        '  - apiGroups:',
        '      - storage.example.com',
        '    resources:',
        '      - demovolumes/status',
        '    verbs:',
        '      - get',
        '      - patch',
        '      - update',
        '',
      ].join('\n'),
    );
  });

  it('reduces the verbs of a rule to * when one of them is *', () => {
    const markers = [
      rbac({ groups: 'apps', resources: 'deployments', verbs: 'get;update;patch' }),
      rbac({ groups: 'apps', resources: 'deployments', verbs: '*' }),
    ];
    expect(roles(markers)).toMatchObject([{ rules: [{ apiGroups: ['apps'], resources: ['deployments'], verbs: ['*'] }] }]);
  });

  it('joins rules that end up applying to the same things, where controller-gen would drop one', () => {
    const markers = [
      rbac({ groups: 'a;b', resources: 'x', verbs: 'get' }),
      rbac({ groups: 'a', resources: 'x', verbs: 'list' }),
      rbac({ groups: 'b', resources: 'x', verbs: 'list' }),
    ];
    expect(roles(markers)).toMatchObject([{ rules: [{ apiGroups: ['a', 'b'], resources: ['x'], verbs: ['get', 'list'] }] }]);
  });

  it('puts markers with roleName into their own role', () => {
    const markers = [
      rbac({ groups: 'apps', resources: 'deployments', verbs: 'get', namespace: 'infra', roleName: 'infra-manager' }),
      rbac({ groups: 'core', resources: 'secrets', verbs: 'get', namespace: 'users', roleName: 'user-secrets' }),
      rbac({ groups: 'core', resources: 'pods', verbs: 'list' }),
    ];
    expect(roles(markers).map((r) => (r as { kind: string; metadata: unknown }).metadata)).toEqual([
      { name: 'manager-role' },
      { name: 'infra-manager', namespace: 'infra' },
      { name: 'user-secrets', namespace: 'users' },
    ]);
    expect(roles(markers, { roleName: 'operator-role' })[0]).toMatchObject({ kind: 'ClusterRole', metadata: { name: 'operator-role' } });
  });

  it('writes a Role in the manager namespace for a namespaced project', () => {
    expect(roles([rbac({ groups: 'core', resources: 'pods', verbs: 'get' })], { namespaced: true })).toEqual([
      {
        apiVersion: 'rbac.authorization.k8s.io/v1',
        kind: 'Role',
        metadata: { name: 'manager-role', namespace: 'system' },
        rules: [{ apiGroups: [''], resources: ['pods'], verbs: ['get'] }],
      },
    ]);
  });

  it('writes the role without rules when there are no markers', () => {
    expect(roles([])).toEqual([{ apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'ClusterRole', metadata: { name: 'manager-role' }, rules: [] }]);
    expect(roles([], { namespaced: true })).toEqual([
      { apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'Role', metadata: { name: 'manager-role', namespace: 'system' }, rules: [] },
    ]);
  });

  it('writes only the Role of a namespaced project whose markers name its namespace', () => {
    // What `opgen create api` scaffolds for a namespaced project: kustomize renames the namespace.
    const markers = [rbac({ groups: 'app.example.com', resources: 'podsets', verbs: 'get', namespace: 'demo-system' })];
    expect(roles(markers, { namespaced: true })).toEqual([
      {
        apiVersion: 'rbac.authorization.k8s.io/v1',
        kind: 'Role',
        metadata: { name: 'manager-role', namespace: 'demo-system' },
        rules: [{ apiGroups: ['app.example.com'], resources: ['podsets'], verbs: ['get'] }],
      },
    ]);
  });

  it.each([
    [{ groups: 'apps', verbs: 'get' }, 'needs resources= or urls='],
    [{ resources: 'pods', verbs: 'get' }, 'resources need groups= (use groups=core'],
    [{ groups: 'apps', resources: 'deployments', verbs: 'Get;LIST' }, 'verbs are lower case in RBAC: Get, LIST (write get;list)'],
    [{ urls: '/metrics', resources: 'pods', groups: 'core', verbs: 'get' }, 'urls= cannot be combined with groups= or resources='],
    [{ urls: '/metrics', verbs: 'get', namespace: 'ns' }, 'urls= only work in a ClusterRole'],
  ])('rejects %j with a located error', (fields, message) => {
    const marker = rbac(fields);
    let thrown: unknown;
    try {
      generateRbac([marker]);
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(UserErrors);
    const [error] = (thrown as UserErrors).errors;
    expect(error?.message).toContain(message.split(' (')[0]);
    expect(`${error?.message} (${error?.hint})`).toContain(message);
    expect(error?.location).toEqual(marker.location);
  });
});

describe('generateRbac refuses rules that grant nothing', () => {
  it.each([
    [{ groups: 'apps', resources: 'deployments', verbs: 'get;lsit' }, {}, 'unknown verb lsit (known verbs: *;get;list;watch;create;update;patch;delete;deletecollection;use;bind;escalate;impersonate;approve;sign)'],
    [{ urls: '/metrics', verbs: 'get;watch' }, {}, 'unknown verb watch (known verbs: *;get;post;put;patch;delete;head;options)'],
    [
      { groups: 'core', resources: 'nodes;pods', verbs: 'get' },
      { namespaced: true },
      'nodes is cluster-scoped: a Role (namespace system) cannot grant it (this operator watches one namespace (PROJECT namespaced: true); cluster-wide rights need opgen edit --namespaced=false)',
    ],
    [
      { groups: 'ship.example.com', resources: 'harbours/status', verbs: 'get', namespace: 'sea' },
      { clusterScoped: ['ship.example.com/harbours'] },
      'ship.example.com/harbours is cluster-scoped: a Role (namespace sea) cannot grant it (leave out namespace= for a ClusterRole)',
    ],
  ])('%j with %j, located at the marker', (fields, options, message) => {
    const marker = rbac(fields);
    let thrown: unknown;
    try {
      generateRbac([marker], options);
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(UserErrors);
    const [error] = (thrown as UserErrors).errors;
    expect(`${error?.message} (${error?.hint})`).toBe(`+kubebuilder:rbac: ${message}`);
    expect(error?.location).toEqual(marker.location);
  });

  it('accepts the same cluster-scoped resources in a ClusterRole, and special verbs', () => {
    expect(roles([rbac({ groups: 'core', resources: 'nodes', verbs: 'get;list' }), rbac({ groups: 'core', resources: 'serviceaccounts', verbs: 'impersonate' })])).toHaveLength(1);
  });
});
