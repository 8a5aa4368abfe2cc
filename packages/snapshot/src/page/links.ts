import { manifest } from '@argus/protocol';
import { readFunction } from './read-kit.js';

/** `read.links`: every link (a[href], area[href]) with its text and absolute href, filtered and capped. */
export const LINKS = readFunction(
  'links',
  // the page's answer never has dialogs: the daemon adds the tab's own (a page cannot claim one)
  manifest.read.links.output.omit({ dialogs: true }),
  function (this: Document | Element, { deepAll, norm }, maxItems: number, filter: string) {
    const needle = filter ? filter.toLowerCase() : '';
    const links: Array<{ text: string; href: string }> = [];
    let total = 0;
    for (const a of deepAll(this, 'a[href], area[href]')) {
      // an <a> inside an <svg> has an SVGAnimatedString href
      let href: unknown = (a as HTMLAnchorElement).href;
      if (typeof href !== 'string') {
        try {
          href = new URL(a.getAttribute('href') || '', document.baseURI).href;
        } catch {
          continue;
        }
      }
      if (!href || typeof href !== 'string') continue;
      const img = a.querySelector && a.querySelector('img[alt]');
      const text =
        norm((a as HTMLElement).innerText || a.textContent) ||
        norm(a.getAttribute('aria-label')) ||
        norm(a.getAttribute('title')) ||
        norm(img && img.getAttribute('alt')) ||
        norm(a.getAttribute('alt'));
      if (needle && !href.toLowerCase().includes(needle) && !text.toLowerCase().includes(needle)) continue;
      total++;
      if (links.length < maxItems) links.push({ text: text.slice(0, 500), href });
    }
    return { links, total, truncated: total > links.length };
  },
);
