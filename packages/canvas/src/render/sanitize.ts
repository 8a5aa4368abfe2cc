/**
 * What a design document may put into exported code: URLs of http(s), relative or data:image kind,
 * CSS values that cannot break out of their property, attribute names from a fixed list. Everything
 * else is dropped (never passed through "escaped"), so hostile props and styles leave no trace.
 */

const DATA_IMAGE = /^data:image\/(png|jpe?g|gif|webp|avif|bmp|svg\+xml)[;,]/i;

/** A URL safe for src/href: http(s), protocol-relative-free relative paths, or a data:image. */
export function safeUrl(value: string | undefined): string | undefined {
  if (value === undefined) return undefined;
  // browsers drop tabs/newlines and leading controls inside URLs: `java\nscript:` is still javascript:
  // eslint-disable-next-line no-control-regex
  const trimmed = value.replace(/[\u0000-\u0020\u007f]+/g, '');
  if (trimmed === '') return undefined;
  if (DATA_IMAGE.test(trimmed)) return value.trim();
  const scheme = /^([a-z][a-z0-9+.-]*):/i.exec(trimmed)?.[1]?.toLowerCase();
  if (scheme === undefined) return trimmed.startsWith('//') || trimmed.startsWith('\\') ? undefined : value.trim();
  return scheme === 'http' || scheme === 'https' ? value.trim() : undefined;
}

/**
 * A CSS value kept only when it stays one value of one property: no `;`, braces, angle brackets or
 * backslash escapes (which could spell any of those), no `expression(`/`javascript:`/`@import`/
 * `-moz-binding`/`behavior`, and every `url(...)` inside it a safe URL.
 */
export function safeCssValue(value: string): string | undefined {
  if (/[;{}<>\\]|expression\s*\(|javascript:|vbscript:|@import|-moz-binding|behavior\s*:/i.test(value))
    return undefined;
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u001f\u007f]/.test(value)) return undefined;
  for (const match of value.matchAll(/url\(\s*(['"]?)(.*?)\1\s*\)/gi)) {
    if (safeUrl(match[2] ?? '') === undefined) return undefined;
  }
  if (/url\(/i.test(value) && !/url\(\s*(['"]?).*?\1\s*\)/i.test(value)) return undefined;
  return value.trim();
}

/** React's serialisation of a camelCase style name (`backgroundColor` -> `background-color`, `msX` -> `-ms-x`). */
export function cssName(name: string): string {
  if (name.startsWith('--')) return name;
  return name
    .replace(/([A-Z])/g, '-$1')
    .toLowerCase()
    .replace(/^ms-/, '-ms-');
}

/** Properties React writes without `px`; the render tree turns every other number into `<n>px`. */
const UNITLESS = new Set([
  'animationIterationCount',
  'aspectRatio',
  'columnCount',
  'columns',
  'flex',
  'flexGrow',
  'flexShrink',
  'flexPositive',
  'flexNegative',
  'flexOrder',
  'fontWeight',
  'gridArea',
  'gridRow',
  'gridColumn',
  'lineClamp',
  'lineHeight',
  'opacity',
  'order',
  'orphans',
  'scale',
  'tabSize',
  'widows',
  'zIndex',
  'zoom',
  'fillOpacity',
  'floodOpacity',
  'stopOpacity',
  'strokeOpacity',
  'strokeWidth',
]);

/** Properties that load code in some engine (IE's HTC behaviours, old Firefox's XBL bindings): never emitted. */
const CODE_PROPERTIES = new Set(['behavior', 'MozBinding', 'mozBinding']);

export function cssValue(name: string, value: string | number): string | undefined {
  if (CODE_PROPERTIES.has(name)) return undefined;
  if (typeof value === 'number') return UNITLESS.has(name) || value === 0 ? String(value) : `${value}px`;
  return safeCssValue(value);
}

/** React's escaping of text and attribute values, so the HTML and the TSX render byte for byte alike. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (char) =>
    char === '&' ? '&amp;' : char === '<' ? '&lt;' : char === '>' ? '&gt;' : char === '"' ? '&quot;' : '&#x27;',
  );
}
