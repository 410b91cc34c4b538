import { GIZMOS, WIDGETS } from '../crds.js';
import type { Area } from '../scenario.js';
import { ref } from '../scenario.js';
import { DEPLOYMENTS, JSON_PATCH, MERGE, create, get, patch, update, widget } from '../steps.js';

const at = (step: string): { resourceVersion: ReturnType<typeof ref> } => ({ resourceVersion: ref(step, 'metadata.resourceVersion') });
const W = `${WIDGETS}/w`;
const deployment = (replicas: number): Record<string, unknown> => ({
  apiVersion: 'apps/v1',
  kind: 'Deployment',
  metadata: { name: 'd' },
  spec: {
    replicas,
    selector: { matchLabels: { app: 'd' } },
    template: { metadata: { labels: { app: 'd' } }, spec: { containers: [{ name: 'c', image: 'nginx' }] } },
  },
});

/** An autoscaling/v1 Scale body for a PUT of `/scale`. */
const scale = (name: string, replicas: number, metadata: Record<string, unknown> = {}): Record<string, unknown> => ({
  apiVersion: 'autoscaling/v1',
  kind: 'Scale',
  metadata: { name, ...metadata },
  spec: { replicas },
});

/** generation, the status subresource's separation from the main resource, and the scale subresource. */
export const status: Area = {
  area: 'generation and subresources',
  owner: 'memserver',
  scenarios: [
    { name: 'a new Widget has generation 1', steps: [create(WIDGETS, widget('w', { replicas: 2 }))] },
    {
      name: 'a spec change increments generation',
      steps: [create(WIDGETS, widget('w', { replicas: 2 })), patch(W, MERGE, { spec: { replicas: 3 } }), patch(W, MERGE, { spec: { replicas: 4 } })],
    },
    {
      name: 'a metadata change keeps generation',
      steps: [create(WIDGETS, widget('w')), patch(W, MERGE, { metadata: { labels: { a: 'b' }, annotations: { c: 'd' } } })],
    },
    {
      name: 'status written through the main resource is ignored',
      steps: [create(WIDGETS, { ...widget('w'), status: { phase: 'Ready' } }), patch(W, MERGE, { status: { phase: 'Ready' } }), get(W)],
    },
    {
      name: 'status written through /status is stored and keeps generation',
      steps: [create(WIDGETS, widget('w')), patch(`${W}/status`, MERGE, { status: { phase: 'Ready', replicas: 1 } }), get(W)],
    },
    {
      name: 'spec written through /status is ignored',
      steps: [create(WIDGETS, widget('w', { replicas: 1 })), patch(`${W}/status`, MERGE, { spec: { replicas: 5 }, status: { phase: 'Pending' } }), get(W)],
    },
    {
      name: 'metadata labels written through /status are ignored',
      steps: [create(WIDGETS, widget('w')), patch(`${W}/status`, MERGE, { metadata: { labels: { a: 'b' } }, status: { phase: 'Pending' } })],
    },
    {
      name: 'PUT /status replaces the status and keeps the spec',
      steps: [
        create(WIDGETS, widget('w', { replicas: 1 }), 'v1'),
        update(`${W}/status`, { ...widget('w', { replicas: 9 }, at('v1')), status: { phase: 'Ready', observedGeneration: 1 } }),
        get(W),
      ],
    },
    {
      name: 'PUT /status with a stale resourceVersion is 409 Conflict',
      steps: [
        create(WIDGETS, widget('w'), 'v1'),
        patch(W, MERGE, { spec: { replicas: 2 } }),
        update(`${W}/status`, { ...widget('w', {}, at('v1')), status: { phase: 'Ready' } }),
      ],
    },
    {
      name: 'PUT of the main resource keeps the stored status',
      steps: [
        create(WIDGETS, widget('w')),
        patch(`${W}/status`, MERGE, { status: { phase: 'Ready' } }, 'withStatus'),
        update(W, { ...widget('w', { replicas: 4 }, at('withStatus')), status: { phase: 'Pending' } }),
      ],
    },
    {
      name: 'an invalid status through /status is 422 Invalid',
      steps: [create(WIDGETS, widget('w')), patch(`${W}/status`, MERGE, { status: { phase: 'Exploded' } })],
    },
    {
      name: 'a status condition list-map through /status with a JSON patch',
      steps: [
        create(WIDGETS, widget('w')),
        patch(`${W}/status`, MERGE, { status: { conditions: [{ type: 'Ready', status: 'False', reason: 'Starting' }] } }),
        patch(`${W}/status`, JSON_PATCH, [{ op: 'replace', path: '/status/conditions/0/status', value: 'True' }]),
      ],
    },
    {
      name: '/status of a missing Widget is 404 NotFound',
      steps: [patch(`${WIDGETS}/missing/status`, MERGE, { status: { phase: 'Ready' } })],
    },
    {
      name: 'a kind without a status subresource has no /status',
      noNamespace: true,
      steps: [
        create(GIZMOS, { apiVersion: 'diff.opgen.dev/v1', kind: 'Gizmo', metadata: { name: '{ns}-g' }, spec: { a: 1 } }),
        get(`${GIZMOS}/{ns}-g/status`),
        { method: 'DELETE', path: `${GIZMOS}/{ns}-g` },
      ],
    },
    {
      name: 'without a status subresource, a status change increments generation',
      noNamespace: true,
      steps: [
        create(GIZMOS, { apiVersion: 'diff.opgen.dev/v1', kind: 'Gizmo', metadata: { name: '{ns}-g' }, spec: { a: 1 } }),
        patch(`${GIZMOS}/{ns}-g`, MERGE, { status: { seen: true } }),
        patch(`${GIZMOS}/{ns}-g`, MERGE, { metadata: { labels: { x: 'y' } } }),
        { method: 'DELETE', path: `${GIZMOS}/{ns}-g` },
      ],
    },
    {
      name: 'the scale subresource reads spec and status replicas',
      steps: [
        create(WIDGETS, widget('w', { replicas: 3 })),
        patch(`${W}/status`, MERGE, { status: { replicas: 2, selector: 'app=w' } }),
        get(`${W}/scale`),
      ],
    },
    {
      name: 'writing the scale subresource sets spec.replicas',
      steps: [
        create(WIDGETS, widget('w', { replicas: 3 })),
        patch(`${W}/scale`, MERGE, { spec: { replicas: 5 } }),
        get(W),
      ],
    },
    {
      name: 'scaling beyond the schema maximum is 422 Invalid',
      steps: [create(WIDGETS, widget('w', { replicas: 3 })), patch(`${W}/scale`, MERGE, { spec: { replicas: 50 } })],
    },
    {
      name: 'a Deployment gets generation 1 and a spec change increments it',
      steps: [create(DEPLOYMENTS, deployment(1)), patch(`${DEPLOYMENTS}/d`, MERGE, { spec: { replicas: 2 } }), patch(`${DEPLOYMENTS}/d`, MERGE, { metadata: { labels: { a: 'b' } } })],
    },
    {
      name: 'a Deployment status written through the main resource is ignored',
      steps: [create(DEPLOYMENTS, deployment(1)), patch(`${DEPLOYMENTS}/d`, MERGE, { status: { replicas: 7 } }), patch(`${DEPLOYMENTS}/d/status`, MERGE, { status: { observedGeneration: 1 } })],
    },
    {
      name: 'a PUT of the scale subresource sets replicas; the same replicas again changes nothing',
      steps: [create(WIDGETS, widget('w', { replicas: 3 })), update(`${W}/scale`, scale('w', 6)), update(`${W}/scale`, scale('w', 6)), get(W)],
    },
    {
      name: 'a PUT of the scale subresource at a stale resourceVersion is 409 Conflict',
      steps: [create(WIDGETS, widget('w', { replicas: 3 }), 'made'), patch(W, MERGE, { spec: { replicas: 4 } }), update(`${W}/scale`, scale('w', 6, at('made')))],
    },
    {
      name: 'a PUT of the scale subresource naming another object is 400',
      steps: [create(WIDGETS, widget('w', { replicas: 3 })), update(`${W}/scale`, scale('other', 6))],
    },
    {
      name: 'a JSON patch of the scale subresource',
      steps: [create(WIDGETS, widget('w', { replicas: 3 })), patch(`${W}/scale`, JSON_PATCH, [{ op: 'replace', path: '/spec/replicas', value: 2 }])],
    },
    {
      name: 'a negative scale is 422 Invalid',
      steps: [create(WIDGETS, widget('w', { replicas: 3 })), patch(`${W}/scale`, MERGE, { spec: { replicas: -1 } })],
    },
    {
      name: 'the scale subresource of a missing object is 404',
      steps: [get(`${WIDGETS}/nope/scale`), patch(`${WIDGETS}/nope/scale`, MERGE, { spec: { replicas: 1 } })],
    },
  ],
};
