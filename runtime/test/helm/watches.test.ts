import { describe, expect, it } from 'vitest';
import { parseWatches, releaseValues } from '../../src/helm/index.js';
import { parseDuration } from '../../src/helpers/duration.js';
import { matchesSelector } from '../../src/helm/selector.js';

describe('watches.yaml as operator-sdk writes it', () => {
  it('reads every field, with operator-sdk defaults, charts resolved against the file', () => {
    const [watch, second] = parseWatches(
      `# Use the 'create api' subcommand to add watches to this file.
- group: foo.example.com
  version: v1alpha1
  kind: Foo
  chart: helm-charts/foo
  overrideValues:
    image.repository: quay.io/mycustomrepo
  watchDependentResources: false
  reconcilePeriod: 1m30s
  maxConcurrentReconciles: 3
  selector:
    matchExpressions:
     - {key: testLabel, operator: Exists, values: []}
- group: foo.example.com
  version: v1alpha1
  kind: Bar
  chart: helm-charts/bar
`,
      '/opt/helm/watches.yaml',
    );
    expect(watch).toEqual({
      group: 'foo.example.com',
      version: 'v1alpha1',
      kind: 'Foo',
      chart: '/opt/helm/helm-charts/foo',
      watchDependentResources: false,
      overrideValues: { 'image.repository': 'quay.io/mycustomrepo' },
      reconcilePeriodMs: 90_000,
      maxConcurrentReconciles: 3,
      selector: { matchExpressions: [{ key: 'testLabel', operator: 'Exists', values: [] }] },
    });
    expect(second).toMatchObject({ watchDependentResources: true, reconcilePeriodMs: 60_000, maxConcurrentReconciles: 1, overrideValues: {} });
  });

  it('refuses what it cannot honour, naming the file, the watch and the field', () => {
    const entry = '- {group: g.io, version: v1, kind: Foo, chart: c';
    expect(() => parseWatches(`${entry}, dryRunOption: server}`, 'w.yaml')).toThrow('w.yaml: watch 1 (Foo): dryRunOption server is not supported');
    expect(() => parseWatches(`${entry}, reconcilePeriod: soon}`, 'w.yaml')).toThrow('w.yaml: watch 1 (Foo): reconcilePeriod must be a duration');
    expect(() => parseWatches(`${entry}, chartz: x}`, 'w.yaml')).toThrow('w.yaml: watch 1: unknown field chartz');
    expect(() => parseWatches('- group: g.io\n  version: v1\n  chart: c\n', 'w.yaml')).toThrow('w.yaml: watch 1: kind must be a non-empty string');
    expect(() => parseWatches('- group: [\n', 'w.yaml')).toThrow(/^w\.yaml:\d+:\d+: not YAML/);
  });
});

describe('release values', () => {
  it('are the spec with override paths on top, environment variables expanded', () => {
    const spec = { image: { repository: 'user/repo', tag: '1' }, replicas: 2 };
    const values = releaseValues(spec, { 'image.repository': '${REGISTRY}/app', 'labels.team\\.name': '$TEAM', unset: '$NOPE' }, { REGISTRY: 'quay.io', TEAM: 'web' });
    expect(values).toEqual({ image: { repository: 'quay.io/app', tag: '1' }, replicas: 2, labels: { 'team.name': 'web' }, unset: '' });
    expect(spec.image.repository).toBe('user/repo');
    expect(releaseValues({}, { replicas: '$N', 'service.enabled': 'false', tag: '1.27', nothing: 'null', big: '99999999999999999999' }, { N: '3' })).toEqual({
      replicas: 3,
      service: { enabled: false },
      tag: '1.27',
      nothing: null,
      big: '99999999999999999999',
    });
  });
});

describe('the rest of a watch', () => {
  it('reads Go durations', () => {
    expect([parseDuration('1m'), parseDuration('1h30m'), parseDuration('500ms'), parseDuration('0'), parseDuration('1.5s')]).toEqual([60_000, 5_400_000, 500, 0, 1_500]);
    expect([parseDuration('1'), parseDuration('1 m'), parseDuration(''), parseDuration('1d')]).toEqual([undefined, undefined, undefined, undefined]);
  });

  it('matches label selectors with Kubernetes\' operators', () => {
    const selector = { matchLabels: { tier: 'web' }, matchExpressions: [{ key: 'env', operator: 'In' as const, values: ['prod', 'stage'] }, { key: 'legacy', operator: 'DoesNotExist' as const }] };
    expect(matchesSelector(selector, { tier: 'web', env: 'prod' })).toBe(true);
    expect(matchesSelector(selector, { tier: 'web', env: 'dev' })).toBe(false);
    expect(matchesSelector(selector, { tier: 'web', env: 'prod', legacy: '' })).toBe(false);
    expect(matchesSelector({ matchExpressions: [{ key: 'env', operator: 'NotIn', values: ['prod'] }] }, {})).toBe(true);
    expect(matchesSelector({ matchExpressions: [{ key: 'env', operator: 'Exists' }] }, {})).toBe(false);
  });
});
