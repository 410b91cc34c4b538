// The Widget's defaulting, validating and conversion webhooks of the "Webhooks and
// conversion" chapter.
import { conversion, invalid, webhook, type Manager } from '@opgen/runtime';
import { defineKind } from '@opgen/runtime/api';
import type { ObjectMeta } from '@opgen/runtime/api';
import { Widget } from './widget-types.js';

// #region validate
/** Refuses a Widget the API server's schema lets through, with one cause per field. */
export function validateWidget(widget: Widget): void {
  const errors = [];
  if (widget.spec.size % 2 !== 0) {
    const value = widget.spec.size;
    errors.push({ field: 'spec.size', type: 'Invalid' as const, value, detail: 'must be even' });
  }
  if (widget.spec.owner === '') {
    const detail = 'leave it out rather than empty';
    errors.push({ field: 'spec.owner', type: 'Required' as const, detail });
  }
  if (errors.length > 0) throw invalid(errors);
}
// #endregion validate

// #region default
/** Fills what the user left out. */
export function defaultWidget(widget: Widget): void {
  widget.spec.owner ??= 'platform-team';
}
// #endregion default

// #region register
export function setupWidgetWebhooks(mgr: Manager): void {
  webhook(mgr)
    .for(Widget)
    .default(defaultWidget)
    .validate({
      create: validateWidget,
      update: (_old, widget) => validateWidget(widget),
    });
}
// #endregion register

// #region conversion
/** v2 of Widget, the hub: `size` became `replicas`. */
export interface WidgetV2 {
  apiVersion?: string;
  kind?: string;
  metadata?: ObjectMeta;
  spec: { replicas: number; owner?: string };
}
export const WidgetV2 = defineKind<WidgetV2, true>({
  group: 'web.example.com',
  version: 'v2',
  kind: 'Widget',
  plural: 'widgets',
  namespaced: true,
});

export const toHub = (w: Widget): WidgetV2 => ({
  ...w,
  apiVersion: 'web.example.com/v2',
  spec: { replicas: w.spec.size, owner: w.spec.owner },
});
export const fromHub = (w: WidgetV2): Widget => ({
  ...w,
  apiVersion: 'web.example.com/v1',
  spec: { size: w.spec.replicas, owner: w.spec.owner },
});

export function setupWidgetConversion(mgr: Manager): void {
  conversion(mgr).for(WidgetV2).hub(WidgetV2).spoke(Widget, { toHub, fromHub });
}
// #endregion conversion
