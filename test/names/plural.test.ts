import { describe, expect, it } from 'vitest';
import { pluralOf } from '../../src/names/plural.js';

describe('pluralOf', () => {
  // Expected values are what kubebuilder/controller-gen write for these kinds (flect v1).
  it.each([
    // the seed operators and kubebuilder tutorials
    ['DemoVolume', 'demovolumes'],
    ['PodSet', 'podsets'],
    ['OvhNginx', 'ovhnginxes'],
    ['BookStore', 'bookstores'],
    ['Echo', 'echoes'],
    ['ScheduledEcho', 'scheduledechoes'],
    ['Memcached', 'memcacheds'],
    ['CronJob', 'cronjobs'],
    // Kubernetes' own kinds
    ['Policy', 'policies'],
    ['NetworkPolicy', 'networkpolicies'],
    ['Ingress', 'ingresses'],
    ['IngressClass', 'ingressclasses'],
    ['Endpoints', 'endpoints'],
    ['Status', 'statuses'],
    ['Gateway', 'gateways'],
    ['Proxy', 'proxies'],
    ['Lease', 'leases'],
    ['Database', 'databases'],
    ['Redis', 'redis'],
    ['Mailbox', 'mailboxes'],
    ['Batch', 'batches'],
    ['Mesh', 'meshes'],
    ['Quiz', 'quizzes'],
    ['Waltz', 'waltzes'],
    ['Photo', 'photos'],
    ['Radio', 'radios'],
    ['Hero', 'heroes'],
    ['Matrix', 'matrices'],
    ['Index', 'indices'],
    ['Analysis', 'analyses'],
    ['Datum', 'data'],
    ['Stadium', 'stadiums'],
    ['Criterion', 'criteria'],
    ['Shelf', 'shelves'],
    ['Knife', 'knives'],
    ['Archive', 'archives'],
    ['Bureau', 'bureaus'],
    ['Plateau', 'plateaux'],
  ])('%s → %s', (kind, plural) => {
    expect(pluralOf(kind)).toBe(plural);
  });

  it.each([
    ['Person', 'people'],
    ['SalesPerson', 'salespeople'],
    ['Child', 'children'],
    ['Man', 'men'],
    ['Superman', 'supermen'],
    ['Human', 'humans'],
    ['Foot', 'feet'],
    ['Mouse', 'mice'],
    ['Ox', 'oxen'],
    ['Box', 'boxes'],
    ['Alias', 'aliases'],
  ])('irregular: %s → %s', (kind, plural) => {
    expect(pluralOf(kind)).toBe(plural);
  });

  it.each([['Sheep'], ['Fish'], ['Series'], ['Species'], ['Equipment'], ['Information'], ['News'], ['Money']])(
    'uncountable or identical: %s stays',
    (kind) => {
      expect(pluralOf(kind)).toBe(kind.toLowerCase());
    },
  );

  it.each([['People'], ['Children'], ['Data'], ['Indices'], ['Policies'], ['Deployments']])(
    'already plural: %s stays',
    (kind) => {
      expect(pluralOf(kind)).toBe(kind.toLowerCase());
    },
  );

  it('returns the empty string for an empty kind', () => {
    expect(pluralOf('')).toBe('');
  });
});
