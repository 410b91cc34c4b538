import { describe, expect, it } from 'vitest';
import type { JSONSchemaProps } from '../../src/schema/types.js';
import { checkDefaults } from '../../src/validation/structural.js';
import { defaultRejections } from './cases.js';

function spec(properties: Record<string, JSONSchemaProps>): JSONSchemaProps {
  return { type: 'object', properties: { spec: { type: 'object', properties } } };
}

describe('checkDefaults', () => {
  it('accepts defaults that validate and survive pruning', () => {
    const schema = spec({
      size: { type: 'integer', minimum: 1, default: 1 },
      policy: { type: 'string', enum: ['Always', 'Never'], default: 'Always' },
      ports: { type: 'array', items: { type: 'integer' }, default: [80, 443] },
      config: { type: 'object', properties: { a: { type: 'string' } }, default: { a: 'x' } },
      free: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true, default: { anything: [1] } },
      optional: { type: 'string', nullable: true, default: null },
    });
    expect(checkDefaults(schema)).toEqual([]);
  });

  it.each(defaultRejections)('rejects a default %s', (_, x, path, message) => {
    expect(checkDefaults(spec({ x }))).toContainEqual({ path, message: expect.stringContaining(message) });
  });

  it('ignores a null default, as the API server does', () => {
    expect(checkDefaults(spec({ x: { type: 'string', default: null } }))).toEqual([]);
  });

  it('checks defaults inside array items', () => {
    const schema = spec({ list: { type: 'array', items: { type: 'object', properties: { p: { type: 'string', enum: ['TCP', 'UDP'], default: 'tcp' } } } } });
    expect(checkDefaults(schema)).toEqual([{ path: 'spec.list[*].p', message: 'default "tcp" is invalid: must be one of "TCP", "UDP", got "tcp"' }]);
  });
});
