/**
 * The TypeScript twin of test/conformance/go/podtemplate: an API that embeds built-in
 * Kubernetes types, run through `opgen manifests` by the conformance suite.
 * +groupName=podtemplate.conformance.opgen.dev
 */
export const groupVersion = { group: 'podtemplate.conformance.opgen.dev', version: 'v1' } as const;
