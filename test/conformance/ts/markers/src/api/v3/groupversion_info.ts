/**
 * The TypeScript twin of test/conformance/go/markers/v3: a version left out of the CRDs
 * (skipversion). Version v1 holds every marker and type mapping of docs/api-types.md.
 * +groupName=markers.conformance.opgen.dev
 */
export const groupVersion = { group: 'markers.conformance.opgen.dev', version: 'v3' } as const;
