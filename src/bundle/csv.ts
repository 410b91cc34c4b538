import type { Csv } from './base-csv.js';
import type { InstallStrategy } from './install.js';
import { sortKeys } from './objects.js';
import type { Descriptor, OwnedCrd } from './owned.js';
import type { WebhookDefinition } from './webhooks.js';

/** What the project's config/ and samples contribute to the CSV. */
export interface GeneratedCsvParts {
  packageName: string;
  version: string;
  install: InstallStrategy;
  owned: OwnedCrd[];
  webhooks: WebhookDefinition[];
  almExamples: string;
}

/**
 * The bundle's CSV: the base CSV as the user wrote it, with what opgen generates put in:
 * name and version, the install strategy, the webhook definitions, the alm-examples and
 * the owned kinds. For an owned kind, each field the base sets wins (display name,
 * description, resources, action descriptors), and descriptors merge by path with the
 * base's winning: an edited description survives regeneration.
 */
export function buildCsv(base: Csv, parts: GeneratedCsvParts): Csv {
  const { namespace: _placeholder, ...metadata } = base.metadata ?? {};
  const crds = (base.spec.customresourcedefinitions ?? {}) as { owned?: OwnedCrd[]; required?: unknown[] };
  const owned = parts.owned.map((entry) => mergeOwned(entry, crds.owned?.find((b) => b.name === entry.name && b.version === entry.version)));
  const spec: Record<string, unknown> = {
    ...base.spec,
    version: parts.version,
    install: parts.install,
    customresourcedefinitions: { ...crds, owned },
    webhookdefinitions: parts.webhooks.length ? parts.webhooks : undefined,
  };
  return sortKeys({
    apiVersion: base.apiVersion,
    kind: base.kind,
    metadata: {
      ...metadata,
      name: `${parts.packageName}.v${parts.version}`,
      annotations: { capabilities: 'Basic Install', ...metadata.annotations, 'alm-examples': parts.almExamples },
    },
    spec,
  }) as Csv;
}

function mergeOwned(generated: OwnedCrd, base: OwnedCrd | undefined): OwnedCrd {
  if (!base) return generated;
  return {
    ...generated,
    ...base,
    specDescriptors: mergeDescriptors(generated.specDescriptors, base.specDescriptors),
    statusDescriptors: mergeDescriptors(generated.statusDescriptors, base.statusDescriptors),
  };
}

function mergeDescriptors(generated: Descriptor[] | undefined, base: Descriptor[] | undefined): Descriptor[] | undefined {
  if (!base?.length) return generated;
  const byPath = new Map((generated ?? []).map((d) => [d.path, d]));
  for (const d of base) byPath.set(d.path, { ...byPath.get(d.path), ...d });
  return [...byPath.values()].sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
}
