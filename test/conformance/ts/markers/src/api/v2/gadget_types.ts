import type { List, ObjectMeta, int32 } from '@opgen/runtime/api';

/** GadgetSpec is the desired state of a Gadget in v2. */
export interface GadgetSpec {
  /** Display name. */
  displayName: string;
}

/**
 * Gadget in its next version, deprecated before it ships.
 * +kubebuilder:object:root=true
 * +kubebuilder:resource:shortName=gd;gad,categories=all;shop,singular=gadget
 * +kubebuilder:deprecatedversion:warning="markers.conformance.opgen.dev/v2 Gadget is an experiment"
 */
export interface Gadget {
  apiVersion?: string;
  kind?: string;
  metadata?: ObjectMeta;
  spec: GadgetSpec;
}

/** +kubebuilder:object:root=true */
export interface GadgetList extends List<Gadget> {}

/**
 * Cog in v2, not served yet.
 * +kubebuilder:object:root=true
 * +kubebuilder:unservedversion
 * +kubebuilder:resource:scope=Cluster,path=cogwheels
 */
export interface Cog {
  apiVersion?: string;
  kind?: string;
  metadata?: ObjectMeta;
  /** Teeth of the cog. */
  teeth: int32;
}

/** +kubebuilder:object:root=true */
export interface CogList extends List<Cog> {}
