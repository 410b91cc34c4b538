import type { int32 } from '@opgen/runtime/api';

/**
 * Label is a DNS-1123 label.
 * +kubebuilder:validation:MinLength=1
 * +kubebuilder:validation:MaxLength=63
 * +kubebuilder:validation:Pattern=`^[a-z0-9]([-a-z0-9]*[a-z0-9])?$`
 */
export type Label = string;

/** Strategy is how a gadget is rolled out. */
export enum Strategy {
  Recreate = 'Recreate',
  Rolling = 'Rolling',
}

/**
 * Priority classes, as numbers.
 * +kubebuilder:validation:Enum=0;10;100
 */
export type Priority = int32;

/** PartBase holds the fields every part has. */
export interface PartBase {
  /**
   * Serial number of the part.
   * @pattern ^[A-Z]{2}[0-9]{4}$
   */
  serial: string;
}

/** Part is a part of a gadget: its base fields plus a weight. */
export interface Part extends PartBase {
  /**
   * Weight in grams.
   * +kubebuilder:validation:Minimum=0
   * +kubebuilder:validation:ExclusiveMinimum=true
   */
  weight: number;
}

/** Port is a TCP or UDP port. */
export interface Port {
  /** Name of the port. */
  name: Label;
  /**
   * Port number.
   * @minimum 1
   * @maximum 65535
   */
  port: int32;
  /** Protocol of the port. */
  protocol?: 'TCP' | 'UDP';
}

/** Page is a page of items and where the next one starts. */
export interface Page<Item> {
  items: Item[];
  /** Token of the next page, if any. */
  next?: string;
}

/**
 * Source is where the gadget's data comes from: exactly one source.
 * +kubebuilder:validation:ExactlyOneOf=url;configMap
 */
export interface Source {
  /** +kubebuilder:validation:Format=uri */
  url?: string;
  configMap?: string;
}

/**
 * Limits of a gadget: at most one of the two caps, and at least one of the two floors.
 * +kubebuilder:validation:AtMostOneOf=softCap;hardCap
 * +kubebuilder:validation:AtLeastOneOf=floor;minimumFloor
 * +kubebuilder:validation:XValidation:rule="!has(self.softCap) || !has(self.floor) || self.softCap >= self.floor",message="softCap must not be below floor"
 */
export interface Limits {
  softCap?: int32;
  hardCap?: int32;
  floor?: int32;
  minimumFloor?: int32;
}

/**
 * Phase of a gadget, an enumeration of the constants below.
 * +k8s:enum
 */
export type Phase = 'Pending' | 'Ready';
