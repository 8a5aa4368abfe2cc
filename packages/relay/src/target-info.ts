import type { TabInfo } from './wire/index.js';

/** The subset of CDP's Target.TargetInfo the daemon reads, built from the extension's tab view. */
export interface EmulatedTargetInfo {
  targetId: string;
  type: 'page';
  title: string;
  url: string;
  attached: boolean;
  canAccessOpener: false;
  /**
   * Not CDP's: the tab is the one shown in its window (the person's active tab), which only the
   * extension knows. The daemon names it first when it suggests a tab to use next.
   */
  shown: boolean;
}

export function toTargetInfo(tab: TabInfo): EmulatedTargetInfo {
  return {
    targetId: tab.targetId,
    type: 'page',
    title: tab.title,
    url: tab.url,
    attached: tab.attached,
    canAccessOpener: false,
    shown: tab.active,
  };
}

/** Browser.getVersion's shape, derived from the extension's user agent. */
export function toVersion(userAgent: string): {
  protocolVersion: string;
  product: string;
  revision: string;
  userAgent: string;
  jsVersion: string;
} {
  const product = /(?:HeadlessChrome|Chrome|Chromium)\/[\d.]+/.exec(userAgent)?.[0] ?? 'Chrome';
  return { protocolVersion: '1.3', product, revision: '', userAgent, jsVersion: '' };
}
