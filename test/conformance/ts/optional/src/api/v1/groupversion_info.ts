/**
 * The TypeScript twin of test/conformance/go/optional: a version whose fields are optional
 * unless marked required (the Optional marker at file level).
 * +kubebuilder:validation:Optional
 * +groupName=optional.conformance.opgen.dev
 */
export const groupVersion = { group: 'optional.conformance.opgen.dev', version: 'v1' } as const;
