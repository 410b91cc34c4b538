import { describe, expect, it } from 'vitest';
import { annotationChanged, generationChanged, labelChanged, labelSelector } from '../../src/controller/index.js';
import type { KubeObject } from '../../src/object.js';

const obj = (metadata: NonNullable<KubeObject['metadata']>): KubeObject => ({ metadata: { name: 'x', ...metadata } });

describe('predicates', () => {
  it('generationChanged drops status-only updates and passes spec changes, creates and deletes', () => {
    const p = generationChanged();
    expect(p({ type: 'update', oldObject: obj({ generation: 1 }), object: obj({ generation: 1 }) })).toBe(false);
    expect(p({ type: 'update', oldObject: obj({ generation: 1 }), object: obj({ generation: 2 }) })).toBe(true);
    expect(p({ type: 'create', object: obj({ generation: 1 }) })).toBe(true);
    expect(p({ type: 'delete', object: obj({ generation: 1 }) })).toBe(true);
  });

  it('generationChanged passes updates of objects that have no generation', () => {
    expect(generationChanged()({ type: 'update', oldObject: obj({}), object: obj({}) })).toBe(true);
  });

  it('annotationChanged passes only updates that change annotations', () => {
    const p = annotationChanged();
    const a = obj({ annotations: { a: '1' } });
    expect(p({ type: 'update', oldObject: a, object: obj({ annotations: { a: '1' } }) })).toBe(false);
    expect(p({ type: 'update', oldObject: a, object: obj({ annotations: { a: '2' } }) })).toBe(true);
    expect(p({ type: 'update', oldObject: a, object: obj({}) })).toBe(true);
    expect(p({ type: 'update', oldObject: obj({}), object: obj({ annotations: {} }) })).toBe(false);
  });

  it('labelChanged passes only updates that change labels', () => {
    const p = labelChanged();
    expect(p({ type: 'update', oldObject: obj({ labels: { a: '1' } }), object: obj({ labels: { a: '1' } }) })).toBe(false);
    expect(p({ type: 'update', oldObject: obj({ labels: { a: '1' } }), object: obj({ labels: { a: '1', b: '2' } }) })).toBe(true);
  });

  it('labelSelector passes objects carrying every selected label', () => {
    const p = labelSelector({ app: 'web', tier: 'front' });
    expect(p({ type: 'create', object: obj({ labels: { app: 'web', tier: 'front', x: 'y' } }) })).toBe(true);
    expect(p({ type: 'create', object: obj({ labels: { app: 'web' } }) })).toBe(false);
    expect(p({ type: 'update', oldObject: obj({ labels: { app: 'web', tier: 'front' } }), object: obj({}) })).toBe(false);
  });
});
