import { parseAllDocuments } from 'yaml';

interface ObjectHead {
  kind?: string;
  metadata?: { name?: string; namespace?: string };
}

/** `Kind name` or `Kind namespace/name` for each object of a multi-document YAML stream, in order. */
export function objectNames(manifests: string): string[] {
  return parseAllDocuments(manifests)
    .map((document) => document.toJS() as ObjectHead | null)
    .filter((object): object is ObjectHead => object !== null && typeof object === 'object')
    .map((object) => {
      const { name = '', namespace } = object.metadata ?? {};
      return `${object.kind ?? '?'} ${namespace ? `${namespace}/` : ''}${name}`;
    });
}
