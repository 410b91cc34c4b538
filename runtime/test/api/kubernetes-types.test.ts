import { describe, expect, expectTypeOf, it } from 'vitest';
import type { Container, JobTemplateSpec, ObjectMeta, PodTemplateSpec, Quantity, ResourceRequirements, Toleration } from '../../src/api/index.js';

// The Kubernetes types API files embed are the JSON the API server sends: a pod template
// read from a manifest is one as it is, no class instances, no Date.

const manifest = `{
  "metadata": { "labels": { "app": "web" }, "creationTimestamp": "2026-01-02T03:04:05Z" },
  "spec": {
    "containers": [{ "name": "web", "image": "nginx:1.29", "ports": [{ "containerPort": 80 }],
                     "resources": { "limits": { "cpu": "500m", "memory": "128Mi" } } }],
    "tolerations": [{ "key": "dedicated", "operator": "Exists", "effect": "NoSchedule", "tolerationSeconds": 30 }]
  }
}`;

describe('Kubernetes types of @opgen/runtime/api', () => {
  it('take a pod template as JSON, and give it back unchanged', () => {
    const template: PodTemplateSpec = JSON.parse(manifest) as PodTemplateSpec;
    const container: Container = template.spec!.containers[0]!;
    expect(container.resources?.limits?.cpu).toBe('500m');
    expect(template.metadata?.creationTimestamp).toBe('2026-01-02T03:04:05Z');
    expect(JSON.parse(JSON.stringify(template))).toEqual(JSON.parse(manifest));
  });

  it('are JSON-shaped: timestamps strings, quantities strings or numbers, required fields required', () => {
    expectTypeOf<PodTemplateSpec['metadata']>().toEqualTypeOf<ObjectMeta | undefined>();
    expectTypeOf<ObjectMeta['creationTimestamp']>().toEqualTypeOf<string | undefined>();
    expectTypeOf<ResourceRequirements['limits']>().toEqualTypeOf<Record<string, Quantity> | undefined>();
    expectTypeOf<Toleration['tolerationSeconds']>().toEqualTypeOf<number | undefined>();
    expectTypeOf<Container['name']>().toEqualTypeOf<string>();
    expectTypeOf<NonNullable<JobTemplateSpec['spec']>['template']>().toEqualTypeOf<PodTemplateSpec>();
  });
});
