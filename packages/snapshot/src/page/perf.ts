import { manifest } from '@argus/protocol';
import { pageFunction } from './page-function.js';

// the page's answer never has dialogs: the daemon adds the tab's own (a page cannot claim one)
const PerfAnswer = manifest.inspect.perf.output.omit({ dialogs: true });

/**
 * `inspect.perf`: navigation timing plus paint metrics. LCP comes from a buffered PerformanceObserver:
 * takeRecords() hands over the buffered entries at once, so nothing waits.
 */
export const PERF = pageFunction('perf', PerfAnswer, function (this: unknown) {
  const round = (value: unknown) =>
    typeof value === 'number' && Number.isFinite(value) ? Math.round(value * 10) / 10 : null;
  const positive = (value: unknown) => (typeof value === 'number' && value > 0 ? round(value) : null);
  const nav = performance.getEntriesByType('navigation')[0] as PerformanceNavigationTiming | undefined;
  const fcp = performance.getEntriesByName('first-contentful-paint')[0];
  let lcp: number | null = null;
  try {
    const observer = new PerformanceObserver(() => {});
    observer.observe({ type: 'largest-contentful-paint', buffered: true });
    const entries = observer.takeRecords() as Array<PerformanceEntry & { renderTime?: number; loadTime?: number }>;
    observer.disconnect();
    const last = entries[entries.length - 1];
    if (last) lcp = last.renderTime || last.loadTime || last.startTime;
  } catch {
    // no LCP entries in this browser or document
  }
  const resources = performance.getEntriesByType('resource') as PerformanceResourceTiming[];
  return {
    url: location.href,
    navigationType: nav ? nav.type : 'navigate',
    ttfbMs: nav ? positive(nav.responseStart) : null,
    fcpMs: fcp ? round(fcp.startTime) : null,
    lcpMs: positive(lcp),
    domContentLoadedMs: nav ? positive(nav.domContentLoadedEventEnd) : null,
    loadMs: nav ? positive(nav.loadEventEnd) : null,
    durationMs: nav ? positive(nav.duration) : null,
    transferSize: nav ? nav.transferSize || 0 : 0,
    encodedBodySize: nav ? nav.encodedBodySize || 0 : 0,
    decodedBodySize: nav ? nav.decodedBodySize || 0 : 0,
    resources: {
      count: resources.length,
      transferSize: resources.reduce((sum, entry) => sum + (entry.transferSize || 0), 0),
    },
  };
});
