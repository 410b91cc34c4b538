import { describe, expect, it } from 'vitest';
import { builtinSchema } from '../../src/schema/builtins.js';
import { readFileSync } from 'node:fs';
import { builtinData, builtinDefinitionNames } from '../../src/schema/builtins/data.js';
import { definitionName } from '../../src/schema/builtins/names.js';
import { quantityPattern } from '../../src/schema/builtins/known.js';
import { buildCrds } from '../../src/crd/build.js';
import type { ProjectConfig } from '../../src/project/model.js';
import type { JSONSchemaProps } from '../../src/schema/types.js';
import { checkDefaults, checkStructural } from '../../src/validation/structural.js';

const intOrString = { anyOf: [{ type: 'integer' }, { type: 'string' }], 'x-kubernetes-int-or-string': true };

/** Every schema node of `schema`, including itself. */
function nodes(schema: JSONSchemaProps): JSONSchemaProps[] {
  const children = [
    ...Object.values(schema.properties ?? {}),
    ...(schema.items ? [schema.items] : []),
    ...(typeof schema.additionalProperties === 'object' ? [schema.additionalProperties] : []),
    ...(schema.anyOf ?? []),
  ];
  return [schema, ...children.flatMap(nodes)];
}

function get(typeName: string): JSONSchemaProps {
  const schema = builtinSchema(typeName);
  if (!schema) throw new Error(`no schema for ${typeName}`);
  return schema;
}

describe('builtinSchema', () => {
  it('inlines a pod template: containers, their ports and resources', () => {
    const template = get('V1PodTemplateSpec');
    const spec = template.properties?.spec as JSONSchemaProps;
    expect(spec.required).toEqual(['containers']);
    const containers = spec.properties?.containers as JSONSchemaProps;
    expect(containers).toMatchObject({ type: 'array', 'x-kubernetes-list-type': 'map', 'x-kubernetes-list-map-keys': ['name'] });
    const container = containers.items as JSONSchemaProps;
    expect(container.required).toEqual(['name']);
    expect(container.properties?.image).toMatchObject({ type: 'string' });
    // controller-gen writes the `+default` marker of k8s.io/api, not the enum its `+enum` documents.
    expect(container.properties?.ports?.items?.properties?.protocol).toMatchObject({ default: 'TCP', type: 'string' });
    expect(container.properties?.ports?.items?.properties?.protocol).not.toHaveProperty('enum');
    expect(container.properties?.resources?.properties?.limits?.additionalProperties).toEqual({ ...intOrString, pattern: quantityPattern });
    expect(JSON.stringify(template)).not.toMatch(/"\$ref"|"allOf"|x-kubernetes-group-version-kind|x-kubernetes-patch|x-kubernetes-unions/);
  });

  it('is no stricter than the Pod API: no enum lists and no "Possible enum values" text', () => {
    const template = JSON.stringify(get('V1PodTemplateSpec'));
    expect(template).not.toContain('"enum"');
    expect(template).not.toContain('Possible enum values');
    const spec = get('V1PodTemplateSpec').properties?.spec as JSONSchemaProps;
    expect(spec.properties?.restartPolicy).not.toHaveProperty('default');
    expect(spec.properties?.dnsPolicy).not.toHaveProperty('default');
  });

  it('marks the atomic structs controller-gen marks: envFrom references and volume sources', () => {
    const spec = get('V1PodTemplateSpec').properties?.spec as JSONSchemaProps;
    const envFrom = spec.properties?.containers?.items?.properties?.envFrom?.items as JSONSchemaProps;
    expect(envFrom.properties?.configMapRef).toMatchObject({ 'x-kubernetes-map-type': 'atomic' });
    expect(envFrom.properties?.secretRef).toMatchObject({ 'x-kubernetes-map-type': 'atomic' });
    const volume = spec.properties?.volumes?.items as JSONSchemaProps;
    expect(volume.properties?.configMap).toMatchObject({ 'x-kubernetes-map-type': 'atomic' });
  });

  it('keeps the line breaks of Go doc comments in descriptions', () => {
    const containers = get('V1PodSpec').properties?.containers as JSONSchemaProps;
    expect(containers.description).toBe(
      'List of containers belonging to the pod.\nContainers cannot currently be added or removed.\nThere must be at least one container in a Pod.\nCannot be updated.',
    );
  });

  it('keeps name, namespace, labels, annotations and finalizers of an embedded ObjectMeta', () => {
    const metadata = get('V1PodTemplateSpec').properties?.metadata as JSONSchemaProps;
    expect(metadata.type).toBe('object');
    expect(Object.keys(metadata.properties ?? {})).toEqual(['annotations', 'finalizers', 'labels', 'name', 'namespace']);
    expect(metadata.properties?.labels).toMatchObject({ type: 'object', additionalProperties: { type: 'string' } });
  });

  it('writes ResourceRequirements quantities as int-or-string with the quantity pattern', () => {
    const requests = get('V1ResourceRequirements').properties?.requests as JSONSchemaProps;
    expect(requests.type).toBe('object');
    expect(requests.additionalProperties).toEqual({ ...intOrString, pattern: quantityPattern });
  });

  it('writes int-or-string, Time and RawExtension fields the way controller-gen does', () => {
    expect(get('V1ServicePort').properties?.targetPort).toMatchObject(intOrString);
    expect(get('V1ServicePort').properties?.targetPort).not.toHaveProperty('format');
    expect(get('V1Condition').properties?.lastTransitionTime).toMatchObject({ type: 'string', format: 'date-time' });
    expect(get('V1ControllerRevision').properties?.data).toMatchObject({ type: 'object', 'x-kubernetes-preserve-unknown-fields': true });
  });

  it("adds the validations metav1.Condition's markers declare", () => {
    const condition = get('V1Condition');
    expect(condition.required).toEqual(['lastTransitionTime', 'message', 'reason', 'status', 'type']);
    expect(condition.properties?.status?.enum).toEqual(['True', 'False', 'Unknown']);
    expect(condition.properties?.reason).toMatchObject({ minLength: 1, maxLength: 1024 });
    expect(condition.properties?.type).toMatchObject({ maxLength: 316 });
  });

  it('writes only the defaults the Go types declare with markers', () => {
    const template = get('V1PodTemplateSpec');
    expect(template.properties?.spec).not.toHaveProperty('default');
    expect(template.properties?.metadata).not.toHaveProperty('default');
    const container = template.properties?.spec?.properties?.containers?.items as JSONSchemaProps;
    expect(container.properties?.name).not.toHaveProperty('default');
    // LocalObjectReference.name is optional with +default="", and is a list-map key in imagePullSecrets.
    expect(get('V1LocalObjectReference').properties?.name).toMatchObject({ default: '' });
  });

  it('makes a map list whose key is neither required nor defaulted atomic (the API server refuses it)', () => {
    expect(get('V1ServiceAccount').properties?.secrets).toMatchObject({ type: 'array', 'x-kubernetes-list-type': 'atomic' });
    expect(get('V1ServiceAccount').properties?.secrets).not.toHaveProperty('x-kubernetes-list-map-keys');
  });

  it('knows no type controller-gen cannot generate (JSONSchemaProps has floats and untagged fields)', () => {
    expect(builtinSchema('V1JSONSchemaProps')).toBeUndefined();
    expect(builtinSchema('V1CustomResourceDefinition')).toBeUndefined();
    expect(get('V1CustomResourceDefinitionNames').required).toEqual(['kind', 'plural']);
  });

  it('resolves client-node model names, group-qualified names and definition names', () => {
    expect(get('RbacV1Subject').required).toEqual(['kind', 'name']);
    expect(get('FlowcontrolV1Subject').required).toEqual(['kind']);
    expect(get('V2HorizontalPodAutoscalerSpec').required).toContain('scaleTargetRef');
    expect(get('io.k8s.api.core.v1.PodTemplateSpec')).toEqual(get('V1PodTemplateSpec'));
    expect(get('Quantity')).toEqual({ ...intOrString, pattern: quantityPattern });
  });

  it('answers nothing for unknown and ambiguous names', () => {
    expect(builtinSchema('V1NoSuchThing')).toBeUndefined();
    expect(builtinSchema('V1Subject')).toBeUndefined();
    expect(builtinSchema('V1Event')).toBeUndefined();
  });

  it('holds the types of the Kubernetes release the control plane pins, generated by controller-tools v0.21', () => {
    const versions = readFileSync(new URL('../../runtime/controlplane/versions.env', import.meta.url), 'utf8');
    expect(builtinData().kubernetesVersion).toBe(/^KUBERNETES_VERSION=(\S+)$/m.exec(versions)?.[1]);
    expect(builtinData().controllerTools).toMatch(/^v0\.21\./);
  });

  it("gives every caller its own root, and shares the rest frozen so that one user's change cannot reach another", () => {
    const first = get('V1Toleration');
    first.description = 'changed';
    first.properties = { ...first.properties, key: { type: 'integer' } };
    expect(get('V1Toleration').properties?.key).toMatchObject({ type: 'string' });
    expect(get('V1Toleration').description).not.toBe('changed');
    const shared = get('V1Toleration').properties?.operator as JSONSchemaProps;
    expect(() => {
      shared.description = 'changed';
    }).toThrow(TypeError);
    expect(() => get('V1Container').required?.push('image')).toThrow(TypeError);
  });

  it('writes schema keywords in code-point order at every level', () => {
    for (const node of nodes(get('V1Container'))) {
      const keys = Object.keys(node);
      expect(keys).toEqual([...keys].sort());
    }
  });

  it('produces a structural schema with valid defaults for every built-in definition', () => {
    const problems: string[] = [];
    for (const name of builtinDefinitionNames()) {
      // Built-ins are embedded as fields of a CRD's spec.
      const crd: JSONSchemaProps = { type: 'object', properties: { spec: get(name) } };
      for (const p of [...checkStructural(crd), ...checkDefaults(crd)]) problems.push(`${name}: ${p.path}: ${p.message}`);
    }
    expect(builtinDefinitionNames().length).toBeGreaterThan(700);
    expect(problems).toEqual([]);
  });
});

describe('definitionName', () => {
  it('maps every model name of every definition, short where unambiguous and qualified always', () => {
    const pattern = /\.(?<group>[a-z0-9]+)\.(?<version>v\d+(?:(?:alpha|beta)\d+)?)\.(?<kind>\w+)$/;
    const capitalize = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);
    const byShort = new Map<string, string[]>();
    let checked = 0;
    for (const definition of builtinDefinitionNames()) {
      const parts = pattern.exec(definition)?.groups;
      if (!parts) continue;
      const short = `${capitalize(parts.version!)}${parts.kind}`;
      byShort.set(short, [...(byShort.get(short) ?? []), definition]);
      expect(definitionName(`${capitalize(parts.group!)}${short}`)).toBe(definition);
      checked++;
    }
    for (const [short, definitions] of byShort) expect(definitionName(short)).toBe(definitions.length === 1 ? definitions[0] : undefined);
    expect(checked).toBeGreaterThan(500);
    expect([definitionName('CoreV1Event'), definitionName('EventsV1Event'), definitionName('V1Event')]).toEqual(['io.k8s.api.core.v1.Event', 'io.k8s.api.events.v1.Event', undefined]);
    expect(definitionName('IntOrString')).toBe('io.k8s.apimachinery.pkg.util.intstr.IntOrString');
    expect(definitionName('V1NoSuchThing')).toBeUndefined();
  });
});

describe('built-in schemas shared between kinds', () => {
  const info = (extra = '') => `// +groupName=g.example.com\n${extra}export const groupVersion = { group: 'g.example.com', version: 'v1' } as const;\n`;
  const kind = (name: string) =>
    [
      "import type { ObjectMeta } from '@opgen/runtime/api';",
      "import type { V1PodTemplateSpec } from '@kubernetes/client-node';",
      `/**\n * +kubebuilder:object:root=true\n */\nexport interface ${name} {\n  metadata?: ObjectMeta;\n  spec?: { template?: V1PodTemplateSpec };\n}\n`,
    ].join('\n');
  const project: ProjectConfig = { domain: 'example.com', projectName: 'p', multigroup: false, namespaced: false, resources: [], extra: {} };
  const build = (infoExtra: string, maxDescriptionLength?: number) =>
    buildCrds('/p', new Map([['/p/src/api/v1/groupversion_info.ts', info(infoExtra)], ['/p/src/api/v1/a.ts', kind('A')], ['/p/src/api/v1/b.ts', kind('B')]]), {
      project,
      generatorVersion: '1.2.3',
      maxDescriptionLength,
    });
  const containerImage = (result: ReturnType<typeof build>, i: number) =>
    result.crds[i]!.crd.spec.versions[0]!.schema.openAPIV3Schema.properties!.spec!.properties!.template!.properties!.spec!.properties!.containers!.items!.properties!.image!;

  it('drops or shortens descriptions deep inside a pod template without touching the other kinds or later builds', () => {
    const full = containerImage(build(''), 0).description!;
    expect(full.length).toBeGreaterThan(40);
    for (const result of [build('// +kubebuilder:skip:description\n'), build('', 0)]) {
      expect(result.errors).toEqual([]);
      expect([containerImage(result, 0).description, containerImage(result, 1).description]).toEqual([undefined, undefined]);
    }
    const short = build('', 40);
    expect(containerImage(short, 1).description!.length).toBeLessThanOrEqual(40);
    expect(containerImage(build(''), 1).description).toBe(full);
  });
  it('builds a Kind that extends V1Pod, and fields that narrow, mark or wrap built-in types, leaving the shared schemas as they were', () => {
    const before = ['V1Pod', 'V1Container', 'V1ResourceRequirements', 'V1ObjectReference'].map((name) => JSON.stringify(get(name)));
    const head = "import type { ObjectMeta } from '@opgen/runtime/api';\nimport type { V1Pod, V1Container, V1ObjectReference, V1ResourceRequirements } from '@kubernetes/client-node';\n";
    const files = new Map([
      ['/p/src/api/v1/groupversion_info.ts', info()],
      ['/p/src/api/v1/pod.ts', `${head}/**\n * +kubebuilder:object:root=true\n */\nexport interface MyPod extends V1Pod {\n  metadata?: ObjectMeta;\n}\n`],
      [
        '/p/src/api/v1/other.ts',
        `${head}/**\n * +kubebuilder:object:root=true\n */\nexport interface Other {\n  metadata?: ObjectMeta;\n  spec?: {\n` +
          '    a?: Partial<V1Container>;\n    b?: Pick<V1Container, "name">;\n    c?: Omit<V1ObjectReference, "uid">;\n    d?: V1Container & { extra?: string };\n' +
          '    /**\n     * +listType=map\n     * +listMapKey=name\n     */\n    e?: V1Container[];\n    /**\n     * +kubebuilder:default={}\n     * +kubebuilder:skip:description\n     */\n    f?: V1ResourceRequirements;\n  };\n}\n',
      ],
    ]);
    for (const max of [undefined, 0, 20]) {
      const result = buildCrds('/p', files, { project, generatorVersion: '1.2.3', maxDescriptionLength: max });
      expect(result.errors).toEqual([]);
      const pod = result.crds.find((crd) => crd.kind === 'MyPod')!.crd.spec.versions[0]!.schema.openAPIV3Schema;
      expect(pod.properties!.apiVersion!.description === undefined).toBe(max === 0);
      expect(pod.properties!.spec!.properties!.containers).toBeDefined();
    }
    expect(['V1Pod', 'V1Container', 'V1ResourceRequirements', 'V1ObjectReference'].map((name) => JSON.stringify(get(name)))).toEqual(before);
  });
});
