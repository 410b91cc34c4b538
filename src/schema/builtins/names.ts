import { builtinData, builtinDefinitionNames } from './data.js';

/** Where a definition lives: `io.k8s.api.apps.v1.Deployment` → group apps, version v1, kind Deployment. */
const definitionPatterns: readonly RegExp[] = [
  /^io\.k8s\.api\.(?<group>[a-z0-9]+)\.(?<version>v\d+(?:(?:alpha|beta)\d+)?)\.(?<kind>\w+)$/,
  /^io\.k8s\.apimachinery\.pkg\.apis\.(?<group>meta)\.(?<version>v1)\.(?<kind>\w+)$/,
  /^io\.k8s\.apiextensions-apiserver\.pkg\.apis\.(?<group>apiextensions)\.(?<version>v1)\.(?<kind>\w+)$/,
  /^io\.k8s\.kube-aggregator\.pkg\.apis\.(?<group>apiregistration)\.(?<version>v1)\.(?<kind>\w+)$/,
];

const capitalize = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);

const known = new Map<string, string | undefined>();

/**
 * Maps the name of a `@kubernetes/client-node` model (`V1PodTemplateSpec`,
 * `V2HorizontalPodAutoscalerSpec`, `RbacV1Subject`) or an OpenAPI definition name
 * (`io.k8s.api.core.v1.PodTemplateSpec`) to the definition name. Like the client's
 * generator, a model is `<Version><Kind>`, and `<Group><Version><Kind>` where that would be
 * ambiguous (`CoreV1Event` / `EventsV1Event`); an ambiguous short name maps to nothing.
 * Versionless apimachinery types answer to their kind (`Quantity`, `IntOrString`).
 */
export function definitionName(typeName: string): string | undefined {
  if (typeName in builtinData().types) return typeName;
  if (!known.has(typeName)) {
    // Every name a definition answers to ends with its kind, so only the definitions whose
    // kind ends `typeName` can answer to it, and they decide its ambiguity alone.
    const candidates = builtinDefinitionNames().filter((definition) => typeName.endsWith(definition.slice(definition.lastIndexOf('.') + 1)));
    known.set(typeName, buildIndex(candidates).get(typeName));
  }
  return known.get(typeName);
}

function buildIndex(definitions: readonly string[]): Map<string, string> {
  const byShortName = new Map<string, { qualified: string; definition: string }[]>();
  const result = new Map<string, string>();
  for (const definition of definitions) {
    const parts = definitionPatterns.map((pattern) => pattern.exec(definition)?.groups).find((groups) => groups);
    if (!parts) {
      result.set(definition.slice(definition.lastIndexOf('.') + 1), definition);
      continue;
    }
    const { group = '', version = '', kind = '' } = parts;
    const short = `${capitalize(version)}${kind}`;
    const entries = byShortName.get(short) ?? [];
    entries.push({ qualified: `${capitalize(group)}${short}`, definition });
    byShortName.set(short, entries);
  }
  for (const [short, entries] of byShortName) {
    if (entries.length === 1) result.set(short, (entries[0] as { definition: string }).definition);
    for (const { qualified, definition } of entries) result.set(qualified, definition);
  }
  return result;
}
