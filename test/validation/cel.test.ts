import { describe, expect, it } from 'vitest';
import { checkCelRule } from '../../src/validation/cel.js';
import { celRejections } from './cases.js';

describe('checkCelRule accepts', () => {
  it.each([
    // rules from the Kubernetes CRD validation-rules documentation and kubebuilder users
    'self.minReplicas <= self.replicas && self.replicas <= self.maxReplicas',
    "self.all(key, key.matches('^[a-zA-Z]*$'))",
    "self.all(key, self[key].matches('^[a-zA-Z]*$'))",
    'self.size() <= 10',
    "has(self.expired) && self.created + self.ttl < self.expired",
    "self.health.startsWith('ok')",
    'self.metadata.name.size() > 0',
    "type(self) == string ? self == '100%' : self == 1000",
    'self == oldSelf',
    "!has(oldSelf.x) || has(self.x)",
    "self.x.exists(e, e.name == 'a')",
    "self.x.exists_one(e, e.primary)",
    'self.items.map(i, i.price).sum() > 0',
    'self.items.map(i, i.price > 0, i.price)',
    'self.items.filter(i, i.price > 0).size() > 0',
    "self.list.all(i, i.size() > 0)",
    "quantity(self.memory).isGreaterThan(quantity('1Gi'))",
    "isQuantity(self.size) && quantity(self.size).compareTo(quantity('0')) > 0",
    "url(self.endpoint).getScheme() == 'https'",
    "isURL(self.endpoint)",
    'self.items.isSorted()',
    "self.ip.ip().family() == 4 && cidr('10.0.0.0/8').containsIP(self.ip)",
    "self.name.format('%s-%d') != ''",
    // optional syntax
    "self.?spec.replicas.orValue(1) > 0",
    'self.list[?0].hasValue()',
    "self.m[?'k'].orValue('') == ''",
    "[?optional.of(1), 2].size() == 2",
    "{?'k': optional.none()} == {}",
    'self.?a.optMap(x, x + 1).orValue(0) >= 0',
    // literals
    "'single' + \"double\" + '''triple\n line''' + r'raw \\d' + \"\"\"t\"\"\" != ''",
    "b'bytes' == bytes('bytes') && B\"\\x00\" != b'\\377'",
    "'esc \\a\\b\\f\\n\\r\\t\\v\\\\ \\' \\\" \\? \\` \\u00e9 \\U0001F600 \\101' != ''",
    '1 + 0x1F - 2u + 3U * 1.5 / .5 % 2 == 1e3 || 1.5e-3 > 2E+2',
    '-9223372036854775808 < 9223372036854775807 && 18446744073709551615u > 0u',
    'null == null && true != false',
    '[1, 2, 3,] == [1, 2, 3] && {1: 2,} != {}',
    'a.b.Message{field: 1, ?other: optional.none(),}.field == 1',
    '.root.Type{} != null',
    'self.x in [1, 2] && !(self.y in {"a": 1}) && !!true && --1 == 1',
    'self.a // comment\n  > 0',
    // reserved words may be field names, keywords may not
    'self.if == self.namespace',
    'cel.bind(x, self.a, x + x) > 0',
    'self.m.all(k, v, v > 0)',
  ])('%s', (rule) => {
    expect(checkCelRule(rule)).toBeUndefined();
  });
});

describe('checkCelRule rejects', () => {
  it.each(celRejections)('%j', (rule, message, column) => {
    const problem = checkCelRule(rule);
    expect(problem?.message).toContain(message);
    expect(problem?.column).toBe(column);
  });

  it('counts columns in characters, not UTF-16 units', () => {
    expect(checkCelRule("'😀' ==")?.column).toBe(7);
  });

  it('rejects nesting deeper than the API server allows, without overflowing the stack', () => {
    const deep = '('.repeat(300) + '1' + ')'.repeat(300);
    expect(checkCelRule(deep)?.message).toContain('nested more than 250 levels');
    expect(checkCelRule('('.repeat(100) + '1' + ')'.repeat(100))).toBeUndefined();
  });
});
