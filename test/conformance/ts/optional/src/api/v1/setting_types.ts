import type { List, ObjectMeta } from '@opgen/runtime/api';

/** SettingSpec is the desired state of a Setting. */
export interface SettingSpec {
  /** Name of the setting, optional by the package's default. */
  name: string;

  /**
   * Value of the setting, required all the same.
   * +kubebuilder:validation:Required
   */
  value: string;

  /**
   * Owner of the setting, required in the short spelling.
   * +required
   */
  owner?: string;
}

/**
 * Setting is one setting.
 * +kubebuilder:object:root=true
 */
export interface Setting {
  apiVersion?: string;
  kind?: string;
  metadata?: ObjectMeta;
  spec: SettingSpec;
}

/** +kubebuilder:object:root=true */
export interface SettingList extends List<Setting> {}
