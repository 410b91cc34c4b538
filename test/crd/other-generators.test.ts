import { describe, expect, it } from 'vitest';
import { buildCrds } from '../../src/crd/build.js';
import { formatUserError } from '../../src/errors.js';
import type { ProjectConfig } from '../../src/project/model.js';

const project: ProjectConfig = { domain: 'example.com', projectName: 'p', multigroup: false, namespaced: false, resources: [], extra: {} };

function build(info: string, types: string) {
  const texts = new Map([
    ['/p/src/api/v1alpha1/groupversion_info.ts', info],
    ['/p/src/api/v1alpha1/memcached_types.ts', types],
  ]);
  const result = buildCrds('/p', texts, { project, generatorVersion: '1.2.3' });
  return { crds: result.crds, errors: result.errors.map(formatUserError) };
}

const info = `// +kubebuilder:docs-gen:collapse=Apache License

// Package v1alpha1 contains API Schema definitions for the cache v1alpha1 API group.
// As cert-manager's doc.go writes it:
// +k8s:conversion-gen-external-types=github.com/cert-manager/cert-manager/pkg/apis/certmanager/v1
// +k8s:defaulter-gen-input=github.com/cert-manager/cert-manager/pkg/apis/certmanager/v1
// +groupGoName=CertManager
// +gencrdrefdocs:force
// +kubebuilder:object:generate=true
// +k8s:deepcopy-gen=package,register
// +groupName=cache.example.com
export const groupVersion = { group: 'cache.example.com', version: 'v1alpha1' } as const;
`;

const types = `import type { ObjectMeta, int32 } from '@opgen/runtime/api';

// MemcachedSpec defines the desired state of Memcached.
// +k8s:openapi-gen=true
export interface MemcachedSpec {
  // Size is the number of memcached pods.
  // +operator-sdk:csv:customresourcedefinitions:type=spec,displayName="Size",xDescriptors={"urn:alm:descriptor:com.tectonic.ui:podCount"}
  // +kubebuilder:validation:Minimum=1
  size: int32;
  // Ports the pods listen on.
  // +operator-sdk:csv:customresourcedefinitions:type=[spec,status],order=2
  ports?: { port: int32 }[];
  // Conditions as older kubebuilder scaffolds declare them.
  // +patchMergeKey=type
  // +patchStrategy=merge
  // +protobuf=true
  // +listType=map
  // +listMapKey=type
  // +optional
  conditions?: { type: string }[];
}

// +genclient
// +genclient:nonNamespaced
// +k8s:deepcopy-gen:interfaces=k8s.io/apimachinery/pkg/runtime.Object
// +kubebuilder:object:root=true
// +kubebuilder:subresource:status
// +versionName=v1alpha1

// Memcached is the Schema for the memcacheds API.
// +operator-sdk:csv:customresourcedefinitions:displayName="Memcached App",resources={{Deployment,v1,memcached-deployment},{Service,v1,"memcached-svc"}}
export interface Memcached {
  metadata?: ObjectMeta;
  spec?: MemcachedSpec;
  status?: { nodes?: string[] };
}
`;

describe("other generators' markers in kubebuilder and operator-sdk API files", () => {
  it('are recognised and change nothing in the CRD', () => {
    const withThem = build(info, types);
    expect(withThem.errors).toEqual([]);
    const without = build(
      info.replace(/^\/\/ \+(kubebuilder:(object:generate|docs-gen)|k8s:|groupGoName|gencrdrefdocs).*\n/gm, ''),
      types.replace(/^\s*\/\/ \+(genclient|k8s:|versionName|operator-sdk|patch|protobuf).*\n/gm, ''),
    );
    expect(without.errors).toEqual([]);
    expect(withThem.crds[0]!.crd).toEqual(without.crds[0]!.crd);
    expect(withThem.crds[0]!.crd.spec.versions[0]!.subresources).toEqual({ status: {} });
  });

  it("keep what operator-sdk's CSV markers say, on the Kind and on each field by its path, for an OLM bundle", () => {
    const { crds } = build(info, types);
    const csv = crds[0]!.sources.get('v1alpha1')!.csv;
    expect(csv.kind).toEqual([
      {
        displayName: 'Memcached App',
        resources: [
          { kind: 'Deployment', version: 'v1', name: 'memcached-deployment' },
          { kind: 'Service', version: 'v1', name: 'memcached-svc' },
        ],
        location: { file: 'src/api/v1alpha1/memcached_types.ts', line: 31, column: 4 },
      },
    ]);
    expect(csv.fields.map(({ location, ...rest }) => ({ ...rest, line: location.line }))).toEqual([
      { path: 'spec.size', types: ['spec'], displayName: 'Size', xDescriptors: ['urn:alm:descriptor:com.tectonic.ui:podCount'], line: 7 },
      { path: 'spec.ports', types: ['spec', 'status'], order: 2, line: 11 },
    ]);
  });

  it('still refuses a CSV marker that says something impossible, and a +versionName that contradicts the folder', () => {
    const { crds, errors } = build(
      info,
      types
        .replace('type=[spec,status],order=2', 'order=2')
        .replace('+versionName=v1alpha1', '+versionName=v1'),
    );
    expect(crds).toEqual([]);
    expect(errors).toEqual([
      'src/api/v1alpha1/memcached_types.ts:11:6: error: +operator-sdk:csv:customresourcedefinitions:order=2: a field marker needs type=spec, type=status or type=[spec,status] (add type=spec)',
      'src/api/v1alpha1/memcached_types.ts:28:4: error: +versionName=v1 disagrees with the version of its folder, v1alpha1 (the version comes from groupversion_info.ts; remove the marker or make it agree)',
    ]);
  });

  it('still refuses unknown markers in the namespaces opgen owns', () => {
    const { errors } = build(info, types.replace('+kubebuilder:validation:Minimum=1', '+kubebuilder:validation:Minimun=1'));
    expect(errors).toEqual([
      'src/api/v1alpha1/memcached_types.ts:8:6: error: unknown marker +kubebuilder:validation:Minimun (did you mean +kubebuilder:validation:Minimum?)',
    ]);
  });
});
