import type { List, ObjectMeta } from '@opgen/runtime/api';

/**
 * Gadget in a version the CRD leaves out.
 * +kubebuilder:object:root=true
 * +kubebuilder:resource:shortName=gd;gad,categories=all;shop,singular=gadget
 * +kubebuilder:skipversion
 */
export interface Gadget {
  apiVersion?: string;
  kind?: string;
  metadata?: ObjectMeta;
  /** Anything. */
  spec: Record<string, string>;
}

/** +kubebuilder:object:root=true */
export interface GadgetList extends List<Gadget> {}
