import type { Area } from '../scenario.js';
import { applyArea } from './apply.js';
import { builtinKinds } from './builtin.js';
import { cel } from './cel.js';
import { concurrency } from './concurrency.js';
import { conformance } from './conformance.js';
import { crdAdmission } from './crd-admission.js';
import { crud } from './crud.js';
import { deletion } from './deletion.js';
import { examples } from './examples.js';
import { fuzzFindings } from './fuzz.js';
import { gc } from './gc.js';
import { junctors } from './junctors.js';
import { namespaces } from './namespaces.js';
import { patches } from './patches.js';
import { schema } from './schema.js';
import { selectors } from './selectors.js';
import { status } from './status.js';
import { watches } from './watch.js';

/** Every scenario of the differential suite, by area of issue #25. */
export const AREAS: Area[] = [
  crud,
  concurrency,
  status,
  patches,
  selectors,
  namespaces,
  deletion,
  gc,
  watches,
  applyArea,
  schema,
  junctors,
  cel,
  crdAdmission,
  examples,
  conformance,
  fuzzFindings,
  builtinKinds,
];
