/**
 * `argus cdp` (admin only) is deny-by-default: only these read-only methods run unless the
 * operator's `policy.cdp.allow` adds more. Methods that read secrets (cookies, storage), run code
 * (Runtime.evaluate), reach other targets or the browser (Target.*, Browser.*) or navigate are not
 * here on purpose.
 */
export const CDP_READ_ONLY_METHODS: readonly string[] = [
  'Accessibility.enable',
  'Accessibility.getFullAXTree',
  'Accessibility.getPartialAXTree',
  'Accessibility.queryAXTree',
  'Animation.getPlaybackRate',
  'CSS.enable',
  'CSS.getComputedStyleForNode',
  'CSS.getInlineStylesForNode',
  'CSS.getMatchedStylesForNode',
  'CSS.getMediaQueries',
  'CSS.getPlatformFontsForNode',
  'DOM.describeNode',
  'DOM.enable',
  'DOM.getAttributes',
  'DOM.getBoxModel',
  'DOM.getContentQuads',
  'DOM.getDocument',
  'DOM.getFlattenedDocument',
  'DOM.getNodeForLocation',
  'DOM.getOuterHTML',
  'DOM.querySelector',
  'DOM.querySelectorAll',
  'DOMSnapshot.captureSnapshot',
  'LayerTree.enable',
  'Memory.getDOMCounters',
  'Overlay.hideHighlight',
  'Overlay.highlightNode',
  'Page.getFrameTree',
  'Page.getLayoutMetrics',
  'Page.getNavigationHistory',
  'Performance.enable',
  'Performance.getMetrics',
  'Runtime.getHeapUsage',
];

const METHOD = /^[A-Z][A-Za-z]*\.[a-z][A-Za-z]*$/;

export type CdpVerdict = { allowed: true } | { allowed: false; reason: string };

function listed(patterns: readonly string[], method: string): boolean {
  const domain = method.split('.')[0];
  return patterns.some((pattern) => pattern === method || pattern === '*' || pattern === `${domain}.*`);
}

/** Whether `argus cdp` may call `method`: the read-only list, then the operator's extra patterns. */
export function checkCdpMethod(method: string, extra: readonly string[] = []): CdpVerdict {
  if (!METHOD.test(method))
    return { allowed: false, reason: `"${method}" is not a CDP method name (Domain.method, e.g. DOM.getDocument)` };
  if (listed(CDP_READ_ONLY_METHODS, method) || listed(extra, method)) return { allowed: true };
  return {
    allowed: false,
    reason: `${method} is not on the read-only CDP allow-list; the operator can add it to policy.cdp.allow (\`argus config set policy.cdp.allow '["${method}"]'\`)`,
  };
}
