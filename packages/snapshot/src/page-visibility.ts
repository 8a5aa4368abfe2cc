/** RGB of an opaque colour; `null` where the background cannot be known (an image, a gradient). */
export type Rgb = [number, number, number] | null;

/** What a sighted user cannot see, beyond `display:none` / `visibility:hidden` (which the walkers test themselves). */
export interface VisibilityKit {
  /** Called at the start of each walk: forgets what it measured of the page last time. */
  begin(): void;
  /**
   * The element and everything in it is invisible though laid out: opacity 0, clipped to nothing
   * (`clip: rect(0 0 0 0)`, `clip-path: inset(50%)`, a 0- or 1-pixel box with overflow hidden, the
   * "sr-only" pattern), scaled to nothing, or positioned outside the page.
   */
  hiddenBox(el: Element, style: CSSStyleDeclaration, display: string): boolean;
  /** The element's own text cannot be read: font-size 0, transparent, the colour of its background, indented off-screen. */
  hiddenText(style: CSSStyleDeclaration, background: Rgb): boolean;
  /** The background text is drawn on, given the parent's: this element's colour when it paints one. */
  background(style: CSSStyleDeclaration, parent: Rgb): Rgb;
  /** An icon font (Material Icons, Font Awesome...): its text is a ligature or a glyph, not words. */
  iconFont(style: CSSStyleDeclaration): boolean;
}

/**
 * Runs INSIDE the page (serialised with `.toString()` into the walker's bundle, see frame-eval.ts):
 * it must not refer to anything outside its own body. Hiding techniques a page can use to show an
 * agent text a person never sees (prompt injection): each test here has a fixture in
 * tooling/test-kit/pages/hidden-text.html.
 */
export function visibilityKit(): VisibilityKit {
  // parsed colours by their computed string: a page uses a handful of colours on thousands of elements
  // (a cache like this once looked like the cause of renderers that stopped answering; that was the
  // listener lookup from the isolated world, see listeners.ts)
  const colours = new Map<string, [number, number, number, number] | null>();
  const parse = (color: string): [number, number, number, number] | null => {
    let parsed = colours.get(color);
    if (parsed !== undefined) return parsed;
    const match = /^rgba?\(([\d.]+),\s*([\d.]+),\s*([\d.]+)(?:,\s*([\d.]+))?\)$/.exec(color);
    parsed = match
      ? [Number(match[1]), Number(match[2]), Number(match[3]), match[4] === undefined ? 1 : Number(match[4])]
      : null;
    if (colours.size < 500) colours.set(color, parsed);
    return parsed;
  };
  /** A clip rectangle (`rect(0px, 0px, 0px, 0px)`, `rect(1px 1px 1px 1px)`) that leaves at most a pixel. */
  const clipsAway = (clip: string): boolean => {
    if (!clip.startsWith('rect(')) return false;
    const values = clip
      .slice(5, -1)
      .split(/[\s,]+/)
      .map((part) => (part === 'auto' ? NaN : parseFloat(part)));
    const [top, right, bottom, left] = values as [number, number, number, number];
    return (
      (Number.isFinite(right) && Number.isFinite(left) && right - left <= 1) ||
      (Number.isFinite(bottom) && Number.isFinite(top) && bottom - top <= 1)
    );
  };
  const clipPathAway = (path: string): boolean => {
    if (path === 'none' || !path) return false;
    const inset = /^inset\(\s*([\d.]+)(%|px)/.exec(path);
    if (inset) return inset[2] === '%' ? Number(inset[1]) >= 50 : false;
    return (
      /^(?:circle|ellipse)\(\s*0(?:px|%)?[\s)]/.test(path) ||
      /^polygon\((?:\s*0(?:px|%)?\s+0(?:px|%)?\s*,?)+\)$/.test(path)
    );
  };

  /** Replaced elements are transformed and clipped even when inline. */
  const REPLACED = new Set([
    'IMG',
    'INPUT',
    'SELECT',
    'TEXTAREA',
    'VIDEO',
    'CANVAS',
    'IFRAME',
    'OBJECT',
    'EMBED',
    'svg',
  ]);
  /** Outside the page on the left or the top can never be scrolled to; far right of it neither. */
  const offPage = (el: Element, rect: DOMRect = el.getBoundingClientRect()): boolean => {
    const left = rect.right + window.scrollX;
    const top = rect.bottom + window.scrollY;
    if (left <= 0 || top <= 0) return true;
    // far to the right only counts past the page's own width (read once a walk: it costs a layout query)
    if (pageWidth < 0) pageWidth = Math.max(document.documentElement.scrollWidth, window.innerWidth);
    return rect.left + window.scrollX >= pageWidth + 1000;
  };
  let pageWidth = -1;

  return {
    begin(): void {
      pageWidth = -1;
    },
    hiddenBox(el: Element, style: CSSStyleDeclaration, display: string): boolean {
      if (parseFloat(style.opacity) < 0.05) return true;
      const position = style.position;
      if ((position === 'absolute' || position === 'fixed') && style.clip !== 'auto' && clipsAway(style.clip))
        return true;
      if (clipPathAway(style.clipPath)) return true;
      // transforms and overflow do not apply to inline boxes (an absolutely placed one is blockified),
      // and reading computed styles is the walk's main cost
      if (display === 'inline' && !REPLACED.has(el.tagName)) return position === 'relative' && offPage(el);
      const transform = style.transform;
      if (transform.startsWith('matrix(0, 0, 0, 0,') || transform.startsWith('matrix3d(0, 0, 0, 0,')) return true;
      // one read of the shorthand: `visible` only when both axes are
      const clipsOverflow = style.overflow !== 'visible';
      const placed = position !== 'static' || transform !== 'none';
      if (!clipsOverflow && !placed) return false;
      const rect = el.getBoundingClientRect();
      if (clipsOverflow && (rect.width <= 1 || rect.height <= 1)) return true;
      return placed && offPage(el, rect);
    },
    hiddenText(style: CSSStyleDeclaration, background: Rgb): boolean {
      if (parseFloat(style.fontSize) < 1) return true;
      if (parseFloat(style.textIndent) < -500) return true;
      const color = parse(style.color);
      if (!color) return false;
      if (color[3] < 0.1) return style.webkitTextStrokeWidth === '0px' || !style.webkitTextStrokeWidth;
      if (!background) return false;
      const distance =
        Math.abs(color[0] - background[0]) + Math.abs(color[1] - background[1]) + Math.abs(color[2] - background[2]);
      // a text shadow draws the letters anyway
      return distance < 24 && !parse(style.textShadow.split(')')[0] + ')');
    },
    background(style: CSSStyleDeclaration, parent: Rgb): Rgb {
      if (style.backgroundImage !== 'none') return null;
      const color = parse(style.backgroundColor);
      if (!color || color[3] === 0) return parent;
      // a translucent colour over an unknown background leaves it unknown
      if (color[3] < 0.95)
        return parent
          ? ([0, 1, 2].map((index) => color[index]! * color[3] + parent[index]! * (1 - color[3])) as [
              number,
              number,
              number,
            ])
          : null;
      return [color[0], color[1], color[2]];
    },
    iconFont(style: CSSStyleDeclaration): boolean {
      return /material (?:icons|symbols)|font ?awesome|icomoon|glyphicons|bootstrap-icons|ionicons|feather|remixicon|^["']?icons?["']?$/i.test(
        style.fontFamily,
      );
    },
  };
}
