/**
 * operator-sdk's ClusterServiceVersion markers (`+operator-sdk:csv:customresourcedefinitions:…`),
 * read into plain data that an OLM bundle generator can use. They do not change the CRD.
 *
 * @module
 */
import { UserError, type Location } from '../errors.js';
import { resolveLiteral, type Literal } from './literal.js';
import type { Marker } from './parse.js';

/** One operator-sdk CSV marker, as written on a Kind or on a field. */
export interface CsvMarker {
  /** Field markers: the descriptor lists it goes into, from `type=spec`, `type=[spec,status]`. */
  types?: ('spec' | 'status')[];
  displayName?: string;
  /** UI hints, e.g. `urn:alm:descriptor:com.tectonic.ui:podCount`. */
  xDescriptors?: string[];
  /** Kind markers: the objects the Kind owns, from `resources={{Deployment,v1,name},…}`. */
  resources?: { kind: string; version: string; name: string }[];
  order?: number;
  location: Location;
}

/** A field's CSV marker with the field's data path, e.g. `spec.size`. */
export interface CsvFieldMarker extends CsvMarker {
  path: string;
}

/** The name every CSV marker has. */
export const csvMarkerName = 'operator-sdk:csv:customresourcedefinitions';

const strings = { type: 'array', items: { type: 'string' } } as const;

/** Reads one CSV marker written on a Kind (`on: 'type'`) or a field; throws a located UserError. */
export function readCsvMarker(marker: Marker, on: 'type' | 'field'): CsvMarker {
  const args = marker.value as Record<string, unknown>;
  const fail = (message: string, hint: string): never => {
    throw new UserError(`${marker.text}: ${message}`, marker.location, hint);
  };
  const out: CsvMarker = { location: marker.location };
  if (args.displayName !== undefined) out.displayName = args.displayName as string;
  if (args.order !== undefined) out.order = args.order as number;
  if (on === 'field') {
    if (args.resources !== undefined) fail('resources belongs on the Kind', 'move it to the Kind\'s comment');
    if (args.type === undefined) fail('a field marker needs type=spec, type=status or type=[spec,status]', 'add type=spec');
    const types = listOf(args.type as Literal);
    if (!types.length || types.some((t) => t !== 'spec' && t !== 'status')) fail('type is spec, status or [spec,status]', 'e.g. type=[spec,status]');
    out.types = [...new Set(types)] as ('spec' | 'status')[];
    if (args.xDescriptors !== undefined) out.xDescriptors = listOf(args.xDescriptors as Literal);
  } else {
    if (args.type !== undefined || args.xDescriptors !== undefined) fail('type and xDescriptors belong on fields', 'move them to the field\'s comment');
    if (args.resources !== undefined) {
      const items = resolveLiteral(args.resources as Literal, { type: 'array', items: strings });
      const rows = Array.isArray(items) ? items : [];
      if (!rows.length || rows.some((row) => !Array.isArray(row) || row.length !== 3 || row.some((v) => typeof v !== 'string'))) {
        fail('resources is a list of {Kind,version,name}', 'e.g. resources={{Deployment,v1,my-deployment},{Service,v1,my-service}}');
      }
      out.resources = (rows as string[][]).map(([kind, version, name]) => ({ kind: kind!, version: version!, name: name! }));
    }
  }
  return out;
}

/** A list written `[a,b]` (operator-sdk's own spelling), `{a,b}`, `a;b` or as one value. */
function listOf(literal: Literal): string[] {
  if (literal.kind === 'bare' && /^\[.*\]$/.test(literal.text)) {
    return literal.text.slice(1, -1).split(',').map((s) => s.trim()).filter(Boolean);
  }
  const value = resolveLiteral(literal, strings);
  return (Array.isArray(value) ? value : [value]).map(String);
}
