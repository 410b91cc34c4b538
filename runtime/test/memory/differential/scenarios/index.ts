import type { Area } from '../scenario.js';
import { crud } from './crud.js';

/** Every scenario of the differential suite, by area of issue #25. */
export const AREAS: Area[] = [crud];
