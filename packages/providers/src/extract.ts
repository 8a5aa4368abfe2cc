import type { parseHTML } from 'linkedom';
import { linkedom, readability } from './lazy-deps.js';
import { htmlToMarkdown } from './markdown.js';
import { shellReason, type FallbackReason } from './shell-detect.js';

export interface ExtractedContent {
  title: string | null;
  byline: string | null;
  excerpt: string | null;
  siteName: string | null;
  lang: string | null;
  publishedTime: string | null;
  canonicalUrl: string | null;
  /** The main content as Markdown (GFM), and as plain text. */
  markdown: string;
  text: string;
  html: string;
  /** Every link of the page, absolute (against the page's base), http(s) only, fragment dropped, deduplicated. */
  links: string[];
  /** Why this result looks unusable without a browser, if it does. */
  shell: FallbackReason | undefined;
}

export interface ExtractOptions {
  /** Take the content from this CSS selector instead of Readability's pick (metadata still from Readability). */
  selector?: string;
}

/**
 * Readability over linkedom: the same article and metadata as Readability on jsdom for the 24 real
 * pages of readability's own suite, about six times faster (bench/providers-bench.mjs). `url` becomes
 * the document's base (unless the page sets its own), so relative links and images resolve the way
 * the browser would resolve them.
 */
export function extractContent(html: string, url: string, options: ExtractOptions = {}): ExtractedContent {
  const { document } = linkedom().parseHTML(html);
  if (!document.querySelector('base[href]')) {
    const base = document.createElement('base');
    base.setAttribute('href', url);
    (document.head ?? document.documentElement).prepend(base);
  }
  const baseUrl = document.baseURI || url;
  const links = collectLinks(document, baseUrl);
  const lang = document.documentElement?.getAttribute('lang') || null;
  const canonical = document.querySelector('link[rel="canonical"][href]')?.getAttribute('href');
  const canonicalUrl = canonical ? resolveHttp(canonical, baseUrl) : null;
  const selected = options.selector ? select(document, options.selector) : null;
  if (options.selector && !selected) throw new SelectorMissError(options.selector);
  const selectedHtml = selected?.outerHTML;
  const shellProbe = shellReason(document, html);

  // Readability mutates the document: everything read from the whole page is read above.
  const article = new (readability().Readability)(document).parse();
  const contentHtml = selectedHtml ?? article?.content ?? '';
  // from the HTML, not Readability's textContent: that joins adjacent blocks ("interviewMr Obama")
  const text = textOf(selectedHtml ?? article?.content ?? '');
  return {
    title: article?.title || document.title || null,
    byline: article?.byline ?? null,
    excerpt: article?.excerpt ?? null,
    siteName: article?.siteName ?? null,
    lang: article?.lang || lang,
    publishedTime: article?.publishedTime ?? null,
    canonicalUrl,
    markdown: contentHtml ? htmlToMarkdown(contentHtml) : '',
    text,
    html: contentHtml,
    links,
    shell: shellProbe ?? (text.length < 1 ? 'empty' : undefined),
  };
}

export class SelectorMissError extends Error {
  constructor(readonly selector: string) {
    super(`No element matches ${selector}`);
  }
}

/** A selector the CSS parser refuses (`<<<`): the caller's input, not an internal failure. */
export class SelectorSyntaxError extends Error {
  constructor(
    readonly selector: string,
    readonly reason: string,
  ) {
    super(`${selector} is not a valid CSS selector: ${reason}`);
  }
}

function select(document: ReturnType<typeof parseHTML>['document'], selector: string) {
  try {
    return document.querySelector(selector);
  } catch (error) {
    throw new SelectorSyntaxError(selector, error instanceof Error ? error.message : String(error));
  }
}

function collectLinks(document: ReturnType<typeof parseHTML>['document'], baseUrl: string): string[] {
  const seen = new Set<string>();
  for (const anchor of document.querySelectorAll('a[href]')) {
    const href = anchor.getAttribute('href');
    const absolute = href ? resolveHttp(href, baseUrl) : null;
    if (absolute) seen.add(absolute);
  }
  return [...seen];
}

function resolveHttp(href: string, base: string): string | null {
  try {
    const url = new URL(href.trim(), base);
    if (url.protocol !== 'http:' && url.protocol !== 'https:') return null;
    url.hash = '';
    return url.href;
  } catch {
    return null;
  }
}

/** Elements that start a new line of text: headings, paragraphs, list items, rows, sections. */
const BLOCK = new Set(
  'ADDRESS ARTICLE ASIDE BLOCKQUOTE CAPTION DD DETAILS DIV DL DT FIELDSET FIGCAPTION FIGURE FOOTER FORM H1 H2 H3 H4 H5 H6 HEADER HR LI MAIN NAV OL P PRE SECTION SUMMARY TABLE TBODY TFOOT THEAD TR UL'.split(
    ' ',
  ),
);
/** Elements whose text is not the page's words. */
const SKIP = new Set(['SCRIPT', 'STYLE', 'NOSCRIPT', 'TEMPLATE']);

interface TextNode {
  nodeType: number;
  nodeName: string;
  textContent: string | null;
  childNodes: ArrayLike<TextNode>;
}

/** Plain text of an HTML fragment, a line break around each block element and at each `<br>`. */
function textOf(html: string): string {
  if (!html) return '';
  const { document } = linkedom().parseHTML(`<!doctype html><html><body>${html}</body></html>`);
  const parts: string[] = [];
  const walk = (node: TextNode): void => {
    if (node.nodeType === 3) {
      parts.push(node.textContent ?? '');
      return;
    }
    if (node.nodeType !== 1) return;
    const tag = node.nodeName.toUpperCase();
    if (SKIP.has(tag)) return;
    if (tag === 'BR') {
      parts.push('\n');
      return;
    }
    // cells of a row stay on its line, apart
    if (tag === 'TD' || tag === 'TH') parts.push(' ');
    const block = BLOCK.has(tag);
    if (block) parts.push('\n');
    for (const child of Array.from(node.childNodes)) walk(child);
    if (block) parts.push('\n');
  };
  if (document.body) walk(document.body as unknown as TextNode);
  return normaliseText(parts.join(''));
}

function normaliseText(text: string): string {
  return text
    .replace(/[ \t\u00a0]+/g, ' ')
    .replace(/\s*\n\s*/g, '\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}
