/**
 * CEL rules and what kube-apiserver 1.36.3 does with them at CRD install. `refused: true`
 * ones opgen must refuse first; the others it must let through. `on`: the rule sits on the
 * spec (default) or on the items of `items`, an atomic list (not correlatable: no oldSelf)
 * of `Item { name: string; weight?: int32 }`. The spec has: name string (required),
 * replicas int32, tags string[], ports list-map of `Port { name: string; port: int32 }`,
 * labels Record<string,string>, created Time, size IntOrString, ratio number, enabled boolean.
 */
export interface CorpusRule {
  rule: string;
  messageExpression?: string;
  optionalOldSelf?: boolean;
  fieldPath?: string;
  on?: 'spec' | 'item';
  refused: boolean;
}

export const refusedRules: CorpusRule[] = [
  { rule: 'self.nope == 1', refused: true },
  { rule: 'self.name == 1', refused: true },
  { rule: "self.replicas == 'a'", refused: true },
  { rule: 'self.replicas + self.name == 1', refused: true },
  { rule: 'self.tags.all(t, t > 1)', refused: true },
  { rule: 'self.ports.exists(p, p.portt > 1)', refused: true },
  { rule: 'self.labels.all(k, self.labels[k] > 1)', refused: true },
  { rule: 'self.name.startsWith(1)', refused: true },
  { rule: "self.name.endsWith('a', 'b')", refused: true },
  { rule: 'self.name.matches(1)', refused: true },
  { rule: 'self.name.size(1) == 1', refused: true },
  { rule: 'size(self.name, 1) == 1', refused: true },
  { rule: 'self.name.contains(self.replicas)', refused: true },
  { rule: 'self.replicas > 1 && self.name', refused: true },
  { rule: '!self.name', refused: true },
  { rule: 'self.name', refused: true },
  { rule: 'self.replicas', refused: true },
  { rule: 'self.tags', refused: true },
  { rule: 'self.name.lowerAscii() > 1', refused: true },
  { rule: "self.name.split(',') == 'a'", refused: true },
  { rule: "self.tags.size() == 'a'", refused: true },
  { rule: 'self.replicas in self.tags', refused: true },
  { rule: 'self.created > 5', refused: true },
  { rule: "self.enabled == 'true'", refused: true },
  { rule: "self.labels['a'] > 1", refused: true },
  { rule: "self.ports[0].port == 'a'", refused: true },
  { rule: 'self.ports.map(p, p.name) == 1', refused: true },
  { rule: 'self.tags.filter(t, t).size() > 0', refused: true },
  { rule: 'self.tags.all(t, t)', refused: true },
  { rule: "self.metadata.name == 'a'", refused: true },
  { rule: "self.spec.name == 'a'", refused: true },
  { rule: "self.ports.all(p, p.nope == 'a')", refused: true },
  { rule: 'self.size() < 9', refused: true },
  { rule: 'has(self.nope)', refused: true },
  { rule: 'true', fieldPath: '.nope', refused: true },
  { rule: 'true', fieldPath: 'name', refused: true },
  { rule: "url(1).getHost() == 'a'", refused: true },
  { rule: 'quantity(self.name).isGreaterThan(1)', refused: true },
  { rule: 'isURL(self.replicas)', refused: true },
  { rule: "self.name.find(1) == 'a'", refused: true },
  { rule: "ip(self.name).family() == 'a'", refused: true },
  { rule: "cidr(self.name).prefixLength() == 'a'", refused: true },
  { rule: "semver(self.name).major() == 'a'", refused: true },
  { rule: "self.name.charAt('a') == 'b'", refused: true },
  { rule: 'self.tags.isSorted() == 1', refused: true },
  { rule: 'oldSelf.hasValue()', refused: true },
  { rule: 'true', messageExpression: 'self.replicas', refused: true },
  { rule: 'true', messageExpression: 'self.nope', refused: true },
  { rule: 'self.name == oldSelf.name', on: 'item', refused: true },
  { rule: "self.weight == 'a'", on: 'item', refused: true },
  // Over the API server's cost budget (estimated from the schema's bounds, none here).
  { rule: 'self.tags.isSorted()', refused: true },
  { rule: "self.tags.all(a, self.tags.all(b, self.tags.all(c, a + b + c != '')))", refused: true },
  { rule: 'self.name.contains(self.name)', refused: true },
  { rule: 'self.name.matches(self.name)', refused: true },
  { rule: "self.tags.all(t, t.split(',').join('') != '')", refused: true },
  { rule: "self.tags.exists(t, t.matches('^a+$'))", refused: true },
  { rule: "self.labels.all(k, self.labels.all(j, self.labels[k] + self.labels[j] != ''))", refused: true },
  { rule: 'true', messageExpression: "self.tags.join(',')", refused: true },
  { rule: "self.name.contains('a')", on: 'item', refused: true },
  { rule: "self.name.find('[a-z]+') != ''", on: 'item', refused: true },
  // A matches() pattern RE2 refuses, as a literal: cel-go's regex literal validator refuses the rule.
  { rule: "self.name.matches('(?=a)')", refused: true },
  { rule: "matches(self.name, 'a(?!b)')", refused: true },
];

export const acceptedRules: CorpusRule[] = [
  { rule: 'self.replicas > 1', refused: false },
  { rule: "self.name.startsWith('a')", refused: false },
  { rule: 'self.tags.all(t, t.size() > 1)', refused: false },
  { rule: 'self.ports.exists(p, p.port > 1)', refused: false },
  { rule: 'self.labels.all(k, self.labels[k].size() > 0)', refused: false },
  { rule: 'has(self.replicas)', refused: false },
  { rule: 'has(self.name) && has(self.ports) && !has(self.labels.a)', refused: false },
  { rule: "self.created > timestamp('2020-01-01T00:00:00Z')", refused: false },
  { rule: "quantity('1Gi').isGreaterThan(quantity('1'))", refused: false },
  { rule: "url('https://a.example.com').getHost() == 'a.example.com'", refused: false },
  { rule: "self.name.matches('^a')", refused: false },
  { rule: "self.size == 1 || self.size == 'a'", refused: false },
  { rule: "type(self.name) == string", refused: false },
  { rule: '!has(self.replicas) || self.replicas == oldSelf.replicas', refused: false },
  { rule: '!oldSelf.hasValue() || self.name == oldSelf.value().name', optionalOldSelf: true, refused: false },
  { rule: "self.tags.all(i, t, i >= 0 && t != '')", refused: false },
  { rule: "sets.contains(self.tags, ['a'])", refused: false },
  { rule: 'self.ratio > 1', refused: false },
  { rule: 'self.replicas < 1.5', refused: false },
  { rule: "self.weight > 0 && self.name != ''", on: 'item', refused: false },
  { rule: 'true', messageExpression: "'name ' + self.name", refused: false },
  { rule: 'true', fieldPath: '.name', refused: false },
  { rule: 'true', fieldPath: ".labels.anything", refused: false },
  { rule: 'true', fieldPath: ".ports", refused: false },
  { rule: 'self.ports.map(p, p.port).sum() > 0', refused: false },
  // Equality is defined on every type: objects and lists of objects (issue 36).
  { rule: 'self == oldSelf', refused: false },
  { rule: 'self.ports == oldSelf.ports', refused: false },
  { rule: 'self.ports.exists(x, x == self.ports[0])', refused: false },
  // RE2: flags are part of the pattern.
  { rule: "self.name.matches('(?i)^[a-z]+$')", refused: false },
  // cel-go converts timestamps and durations to strings.
  { rule: "string(self.created) != ''", refused: false },
];
