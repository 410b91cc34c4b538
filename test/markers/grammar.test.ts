import { describe, expect, it } from 'vitest';
import { UserError } from '../../src/errors.js';
import { resolveLiteral, type Literal } from '../../src/markers/literal.js';
import { parseMarker } from '../../src/markers/parse.js';

const at = { file: 'src/api/v1/x_types.ts', line: 7, column: 4 };
const value = (text: string) => parseMarker(text, at).value;

function error(text: string): UserError {
  try {
    parseMarker(text, at);
  } catch (e) {
    if (e instanceof UserError) return e;
    throw e;
  }
  throw new Error(`+${text} parsed without error`);
}

describe('marker values', () => {
  it('reads numbers, negative and fractional', () => {
    expect(value('kubebuilder:validation:Minimum=1')).toBe(1);
    expect(value('kubebuilder:validation:Minimum=-1.5')).toBe(-1.5);
    expect(value('kubebuilder:validation:MaxLength=63')).toBe(63);
  });

  it('reads strings bare, in double quotes with Go escapes, and in backticks', () => {
    expect(value('kubebuilder:validation:Pattern=^[a-z]+(,[a-z]+)*$')).toBe('^[a-z]+(,[a-z]+)*$');
    expect(value('kubebuilder:validation:Pattern="^\\\\d+$"')).toBe('^\\d+$');
    expect(value('kubebuilder:validation:Pattern=`^\\d+$`')).toBe('^\\d+$');
  });

  it('reads a bool flag written without a value as true', () => {
    expect(value('kubebuilder:object:root')).toBe(true);
    expect(value('kubebuilder:object:root=true')).toBe(true);
    expect(value('kubebuilder:object:root=false')).toBe(false);
  });

  it('reads lists as a;b;c and as {a,b,c}', () => {
    const semi = value('kubebuilder:validation:Enum=Always;IfNotPresent;Never') as Literal[];
    const braces = value('kubebuilder:validation:Enum={Always,"If Not Present",Never}') as Literal[];
    expect(semi.map((l) => resolveLiteral(l, { type: 'string' }))).toEqual(['Always', 'IfNotPresent', 'Never']);
    expect(braces.map((l) => resolveLiteral(l, { type: 'string' }))).toEqual(['Always', 'If Not Present', 'Never']);
  });

  it('reads key=value arguments, with quoted values that contain commas and quotes', () => {
    expect(value('kubebuilder:validation:XValidation:rule="self.a, self.b == \\"x\\"",message=a message')).toEqual({
      rule: 'self.a, self.b == "x"',
      message: 'a message',
    });
    expect(value('kubebuilder:printcolumn:name="Age",type=date,JSONPath=`.metadata.creationTimestamp`,priority=1')).toEqual({
      name: 'Age',
      type: 'date',
      JSONPath: '.metadata.creationTimestamp',
      priority: 1,
    });
  });

  it('reads string lists inside arguments, including the empty core group', () => {
    expect(value('kubebuilder:rbac:groups="",resources=pods;pods/status,verbs=get;list;watch')).toEqual({
      groups: [''],
      resources: ['pods', 'pods/status'],
      verbs: ['get', 'list', 'watch'],
    });
    expect(value('kubebuilder:resource:path=dvs,shortName={dv,dvol},scope=Cluster')).toEqual({
      path: 'dvs',
      shortName: ['dv', 'dvol'],
      scope: 'Cluster',
    });
  });
});

describe('default and example literals', () => {
  const read = (text: string, schema: Parameters<typeof resolveLiteral>[1]) => resolveLiteral(value(text) as Literal, schema);

  it('reads a bare word as the type of the field: "1" on a string, 1 on an integer', () => {
    expect(read('kubebuilder:default=1', { type: 'string' })).toBe('1');
    expect(read('kubebuilder:default=1', { type: 'integer' })).toBe(1);
    expect(read('kubebuilder:default=true', { type: 'boolean' })).toBe(true);
    expect(read('kubebuilder:default=standard', { type: 'string' })).toBe('standard');
  });

  it('reads {a,b} as a list and {key: value} as a map, nested values typed by the schema', () => {
    expect(read('kubebuilder:default={1,2}', { type: 'array', items: { type: 'integer' } })).toEqual([1, 2]);
    expect(
      read('kubebuilder:default={policy: "Delete", retries: 3, tags: {a,b}}', {
        type: 'object',
        properties: { policy: { type: 'string' }, retries: { type: 'integer' }, tags: { type: 'array', items: { type: 'string' } } },
      }),
    ).toEqual({ policy: 'Delete', retries: 3, tags: ['a', 'b'] });
  });

  it('reads {} as an empty list on a list and an empty map on an object', () => {
    expect(read('kubebuilder:default={}', { type: 'array', items: { type: 'string' } })).toEqual([]);
    expect(read('kubebuilder:default={}', { type: 'object' })).toEqual({});
  });

  it('reads +default= as JSON', () => {
    expect(read('default={"replicas": 2, "names": ["a"]}', { type: 'object' })).toEqual({ replicas: 2, names: ['a'] });
    expect(read('default="1"', { type: 'string' })).toBe('1');
  });
});

describe('marker errors', () => {
  it('suggests the closest marker for a misspelt name', () => {
    const e = error('kubebuilder:validation:MaxLenght=3');
    expect(e.message).toBe('unknown marker +kubebuilder:validation:MaxLenght');
    expect(e.hint).toBe('did you mean +kubebuilder:validation:MaxLength?');
    expect(e.location).toEqual(at);
  });

  it('says when only the case is wrong', () => {
    const e = error('kubebuilder:validation:maxLength=3');
    expect(e.hint).toBe('did you mean +kubebuilder:validation:MaxLength? marker names are case-sensitive');
    expect(error('kubebuilder:subresource:Status').hint).toContain('+kubebuilder:subresource:status?');
  });

  it('finds the marker from its last word when the prefix is wrong', () => {
    expect(error('kubebuilder:Minimum=1').hint).toBe('did you mean +kubebuilder:validation:Minimum?');
  });

  it('points at the bad value of a malformed marker', () => {
    const e = error('kubebuilder:validation:Minimum=abc');
    expect(e.message).toBe('malformed marker +kubebuilder:validation:Minimum=abc: expected a number, found "abc"');
    expect(e.location?.column).toBe(at.column + 1 + 'kubebuilder:validation:Minimum='.length);
    expect(e.hint).toBe('write it as +kubebuilder:validation:Minimum=<number>');
  });

  it('rejects a value on a marker that takes none, and a missing value', () => {
    expect(error('kubebuilder:subresource:status=true').message).toContain('takes no value');
    expect(error('kubebuilder:validation:MaxLength').message).toContain('needs a value');
  });

  it('names unknown and missing arguments', () => {
    expect(error('kubebuilder:printcolumn:name=Age,type=date,jsonpath=.x').message).toContain('unknown argument "jsonpath" (did you mean "JSONPath"?)');
    expect(error('kubebuilder:rbac:groups=apps,resources=deployments').message).toContain('missing verbs');
    expect(error('kubebuilder:validation:XValidation:message=x').message).toContain('missing rule');
  });

  it('reports unclosed quotes and lists', () => {
    expect(error('kubebuilder:validation:Pattern="abc').message).toContain('unclosed double quote');
    expect(error('kubebuilder:validation:Enum={a,b').message).toContain('unclosed "{"');
    expect(error('default={"a":').message).toContain('expected JSON');
  });
});

describe("controller-gen's value grammar, spelling by spelling", () => {
  const resolved = (text: string, schema: Parameters<typeof resolveLiteral>[1]) => resolveLiteral(value(text) as Literal, schema);

  it('reads `:=` as `=`, as the CronJob tutorial writes it', () => {
    expect(resolved('kubebuilder:default:=Allow', { type: 'string' })).toBe('Allow');
    expect((value('kubebuilder:validation:Enum:=Allow;Forbid;Replace') as Literal[]).map((l) => resolveLiteral(l, { type: 'string' }))).toEqual(['Allow', 'Forbid', 'Replace']);
    expect(value('kubebuilder:validation:Minimum:=0')).toBe(0);
  });

  it('reads a list of object literals as a list of objects', () => {
    const schema = { type: 'array', items: { type: 'object', properties: { name: { type: 'string' } } } };
    expect(resolved('kubebuilder:default={{name: "json"},{name: "search"}}', schema)).toEqual([{ name: 'json' }, { name: 'search' }]);
    expect(resolved('kubebuilder:default:={{name: json, port: 80}, {name: search, port: 8080}}', { type: 'array', items: { type: 'object', properties: { name: { type: 'string' }, port: { type: 'integer' } } } })).toEqual([
      { name: 'json', port: 80 },
      { name: 'search', port: 8080 },
    ]);
  });

  it('reads nested maps and lists inside map values, a;b;c there being a list as in controller-gen', () => {
    expect(resolved('kubebuilder:default={text: "abc", len: 3, "as bytes": 97;98;99, props: {encoding: ascii, tags: {"triple", "in a row"}}}', undefined)).toEqual({
      text: 'abc',
      len: 3,
      'as bytes': [97, 98, 99],
      props: { encoding: 'ascii', tags: ['triple', 'in a row'] },
    });
  });

  it('gives a;b its controller-gen meaning, a list, and "a;b" in quotes a string', () => {
    expect(resolved('kubebuilder:default=a;b', { type: 'array', items: { type: 'string' } })).toEqual(['a', 'b']);
    expect(resolved('kubebuilder:default="a;b"', { type: 'string' })).toBe('a;b');
  });

  it('reads a;b inside {…} lists as a nested list, as controller-gen does', () => {
    expect(resolved('kubebuilder:default={1;1,2;3,5;8}', { type: 'array', items: { type: 'array', items: { type: 'integer' } } })).toEqual([
      [1, 1],
      [2, 3],
      [5, 8],
    ]);
    expect(resolved('kubebuilder:default={{1,1},{2,3}}', { type: 'array', items: { type: 'array', items: { type: 'integer' } } })).toEqual([
      [1, 1],
      [2, 3],
    ]);
  });

  it('reads raw JSON after +default=', () => {
    expect(value('default={"name": "json", "ports": [80, 443]}')).toEqual({ kind: 'json', value: { name: 'json', ports: [80, 443] } });
  });
});
