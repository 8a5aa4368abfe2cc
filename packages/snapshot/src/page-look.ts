import type { Rgb, VisibilityKit } from './page-visibility.js';

/**
 * How an element draws its text. Reading computed colours and fonts is most of a walk's cost, and
 * most elements hold no text of their own, so each is worked out once, when a text node asks.
 */
export interface Look {
  style: CSSStyleDeclaration | null;
  parent: Look | null;
  /** text in a control that is itself visually hidden only names it */
  forceHidden: boolean;
  /** the background text is drawn on (null: unknown, e.g. an image); undefined until asked */
  bg?: Rgb;
  hidden?: boolean;
  icon?: boolean;
}

/** Whether the text drawn with a look can be read, and what it is drawn on. */
export interface LookKit {
  /** The text cannot be read: font-size 0, the colour of its background, indented away. */
  hidden(look: Look): boolean;
  /** The text is drawn in an icon font: a ligature or a glyph, not words. */
  icon(look: Look): boolean;
  /** The background behind `el`'s content: the page's canvas (white) under every painted ancestor. */
  backgroundAt(el: Element | null): Rgb;
}

/**
 * Runs INSIDE the page (serialised into the walker's bundle, see frame-eval.ts): it must not refer
 * to anything outside its own body. Icon fonts are remembered by family for the document's life.
 */
export function lookKit(vis: VisibilityKit): LookKit {
  const WHITE: Rgb = [255, 255, 255];
  const iconFonts = new Map<string, boolean>();

  function lookBackground(look: Look): Rgb {
    if (look.bg === undefined) {
      const under = look.parent ? lookBackground(look.parent) : WHITE;
      look.bg = look.style ? vis.background(look.style, under) : under;
    }
    return look.bg;
  }

  function lookHidden(look: Look): boolean {
    if (look.hidden === undefined)
      look.hidden = look.forceHidden || (look.style !== null && vis.hiddenText(look.style, lookBackground(look)));
    return look.hidden;
  }

  function lookIcon(look: Look): boolean {
    if (look.icon === undefined) {
      const family = look.style ? look.style.fontFamily : '';
      let icon = iconFonts.get(family);
      if (icon === undefined) {
        icon = look.style !== null && vis.iconFont(look.style);
        iconFonts.set(family, icon);
      }
      look.icon = icon;
    }
    return look.icon;
  }

  function backgroundAt(el: Element | null): Rgb {
    const chain: Element[] = [];
    for (let at = el; at; at = at.parentElement) chain.unshift(at);
    let bg: Rgb = [255, 255, 255];
    for (const at of chain) bg = vis.background(getComputedStyle(at), bg);
    return bg;
  }

  return { hidden: lookHidden, icon: lookIcon, backgroundAt };
}
