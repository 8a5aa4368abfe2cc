import type { CommandParams, Page } from '@argus/cdp';

export type MetricsOverride = CommandParams<'Emulation.setDeviceMetricsOverride'>;

export type MouseButton = 'left' | 'right' | 'middle';

/** Where the page's mouse is and which buttons it holds, so `mouse down` / `move` / `up` compose like a real mouse. */
export interface MouseState {
  x: number;
  y: number;
  pressed: Set<MouseButton>;
}

/** One inline style value `style` replaced, kept so `style --undo` can put it back. */
export interface StyleChange {
  session: Page['session'];
  backendNodeId: number;
  property: string;
  value: string;
  priority: string;
  /** The page's navigation epoch when it was changed: after a navigation the element is gone. */
  epoch: number;
}

/**
 * What the daemon keeps about one tab beyond what @argus/cdp's Page knows. The BrowserManager
 * owns one per page (`manager.tabState(page)`), so it goes away with the tab.
 */
export class TabState {
  /** Inline values replaced by `style`, newest last (for `style --undo`). */
  styleHistory: StyleChange[] = [];
  /** The mouse as `mouse` and `drag` left it. */
  readonly mouse: MouseState = { x: 0, y: 0, pressed: new Set() };
  /** Extra request headers (`header` accumulates; CDP replaces the whole set each time). */
  extraHeaders: Record<string, string> = {};
  /**
   * The device-metrics override `viewport` / `emulate` set (CDP has no getter for it), so a command
   * that changes the viewport for a moment (`responsive`) puts the exact one back: the params, null
   * after a reset, undefined when Argus never set one.
   */
  metricsOverride: MetricsOverride | null | undefined;
}
