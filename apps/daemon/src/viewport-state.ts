import type { CommandParams, Page } from '@argus/cdp';

export type MetricsOverride = CommandParams<'Emulation.setDeviceMetricsOverride'>;

/**
 * The device-metrics override each tab currently has (CDP has no getter for it), so a command that
 * changes the viewport for a moment (`responsive`) can put the exact previous one back.
 * Whoever calls Emulation.setDeviceMetricsOverride / clearDeviceMetricsOverride records it here.
 */
const overrides = new WeakMap<Page, MetricsOverride | null>();

export function recordMetricsOverride(page: Page, params: MetricsOverride | null): void {
  overrides.set(page, params);
}

/** The recorded override: the params, null when none is set, undefined when never recorded. */
export function recordedMetricsOverride(page: Page): MetricsOverride | null | undefined {
  return overrides.get(page);
}
