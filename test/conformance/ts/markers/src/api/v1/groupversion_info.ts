/**
 * The TypeScript twin of test/conformance/go/markers/v1: every marker and type mapping of
 * docs/api-types.md, run through `opgen manifests` by the conformance suite.
 * +groupName=markers.conformance.opgen.dev
 */
export const groupVersion = { group: 'markers.conformance.opgen.dev', version: 'v1' } as const;
