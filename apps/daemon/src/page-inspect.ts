/**
 * Page functions for the inspection commands (plain JavaScript source, run in Argus's isolated
 * world; `this` is the element for the element functions).
 */

export const COMPUTED_STYLE_FN = `function (property) { return getComputedStyle(this).getPropertyValue(property); }`;

export const ATTRIBUTES_FN = `function () {
  const attributes = {};
  for (const attribute of Array.from(this.attributes || [])) attributes[attribute.name] = attribute.value;
  return { tag: this.tagName ? this.tagName.toLowerCase() : this.nodeName.toLowerCase(), attributes };
}`;

/** Returns a boolean, or a string naming why the state does not apply. */
export const STATE_FN = `function (state) {
  const el = this;
  const visible = () => {
    if (!el.isConnected) return false;
    const rect = el.getBoundingClientRect();
    if (rect.width <= 0 || rect.height <= 0) return false;
    return typeof el.checkVisibility === 'function' ? el.checkVisibility({ visibilityProperty: true, opacityProperty: false }) : true;
  };
  const disabled = () => (typeof el.matches === 'function' && el.matches(':disabled')) || !!(el.closest && el.closest('[aria-disabled="true"]'));
  switch (state) {
    case 'visible': return visible();
    case 'hidden': return !visible();
    case 'enabled': return !disabled();
    case 'disabled': return disabled();
    case 'checked': {
      if (el.tagName === 'INPUT' && (el.type === 'checkbox' || el.type === 'radio')) return el.checked;
      const aria = el.getAttribute('aria-checked') ?? el.getAttribute('aria-pressed');
      if (aria !== null) return aria === 'true';
      if (el.tagName === 'OPTION') return el.selected;
      return 'not_checkable';
    }
    case 'editable': {
      if (disabled()) return false;
      if (el.isContentEditable) return true;
      if (el.tagName === 'TEXTAREA') return !el.readOnly;
      if (el.tagName === 'SELECT') return true;
      if (el.tagName === 'INPUT') return !el.readOnly && !['checkbox', 'radio', 'button', 'submit', 'reset', 'image', 'file', 'hidden', 'color', 'range'].includes(el.type);
      const role = el.getAttribute('role');
      return (role === 'textbox' || role === 'searchbox' || role === 'combobox') && el.getAttribute('aria-readonly') !== 'true';
    }
    case 'focused': {
      let active = document.activeElement;
      while (active && active.shadowRoot && active.shadowRoot.activeElement) active = active.shadowRoot.activeElement;
      return active === el;
    }
  }
  return 'unknown_state';
}`;

/** localStorage + sessionStorage of the document's origin, values cut at maxChars. */
export const STORAGE_READ_FN = `function (key, maxChars) {
  let truncated = false;
  const dump = (storage) => {
    const out = {};
    const keys = key ? [key] : Array.from({ length: storage.length }, (_, i) => storage.key(i));
    for (const k of keys) {
      const value = storage.getItem(k);
      if (value === null) continue;
      if (value.length > maxChars) truncated = true;
      out[k] = value.length > maxChars ? value.slice(0, maxChars) : value;
    }
    return out;
  };
  try {
    return { origin: location.origin, local: dump(localStorage), session: dump(sessionStorage), truncated };
  } catch (error) {
    return { origin: location.origin, error: String((error && error.message) || error) };
  }
}`;

export const STORAGE_WRITE_FN = `function (area, key, value) {
  try {
    (area === 'session' ? sessionStorage : localStorage).setItem(key, value);
    return { origin: location.origin };
  } catch (error) {
    return { origin: location.origin, error: String((error && error.message) || error), quota: !!error && error.name === 'QuotaExceededError' };
  }
}`;

/**
 * Navigation timing plus paint metrics. LCP comes from a buffered PerformanceObserver:
 * takeRecords() hands over the buffered entries at once, so nothing waits.
 */
export const PERF_FN = `function () {
  const round = (value) => (typeof value === 'number' && Number.isFinite(value) ? Math.round(value * 10) / 10 : null);
  const positive = (value) => (typeof value === 'number' && value > 0 ? round(value) : null);
  const nav = performance.getEntriesByType('navigation')[0];
  const fcp = performance.getEntriesByName('first-contentful-paint')[0];
  let lcp = null;
  try {
    const observer = new PerformanceObserver(() => {});
    observer.observe({ type: 'largest-contentful-paint', buffered: true });
    const entries = observer.takeRecords();
    observer.disconnect();
    if (entries.length) { const last = entries[entries.length - 1]; lcp = last.renderTime || last.loadTime || last.startTime; }
  } catch {}
  const resources = performance.getEntriesByType('resource');
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
    resources: { count: resources.length, transferSize: resources.reduce((sum, entry) => sum + (entry.transferSize || 0), 0) },
  };
}`;
