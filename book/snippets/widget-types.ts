// The Widget kind the book's chapters build on, as
// `opgen create api --group web --version v1 --kind Widget` writes it.
// #region types
import { defineKind } from '@opgen/runtime/api';
import type { Condition, ObjectMeta } from '@opgen/runtime/api';

/** WidgetSpec is what the user wants. */
export interface WidgetSpec {
  /**
   * How many replicas the widget's ConfigMap advertises.
   * +kubebuilder:validation:Minimum=0
   */
  size: number;
  /** +optional */
  owner?: string;
}

/** WidgetStatus is what the controller saw. */
export interface WidgetStatus {
  /** +optional */
  observedSize?: number;
  /**
   * +listType=map
   * +listMapKey=type
   * +optional
   */
  conditions?: Condition[];
}

/**
 * Widget is the Schema for the widgets API.
 * +kubebuilder:object:root=true
 * +kubebuilder:subresource:status
 */
export interface Widget {
  apiVersion?: string;
  kind?: string;
  metadata?: ObjectMeta;
  spec: WidgetSpec;
  status?: WidgetStatus;
}

export const Widget = defineKind<Widget, true>({
  group: 'web.example.com',
  version: 'v1',
  kind: 'Widget',
  plural: 'widgets',
  namespaced: true,
});
// #endregion types
