import type { Page } from '@argus/cdp';
import type { CanvasDocument, RenderOptions } from '@argus/canvas';
import { canvas } from './canvas-lib.js';
import type { BrowserManager } from './browser-manager.js';

interface Preview {
  page: Page;
  doc: string;
  options: RenderOptions;
}

/** A preview that does not answer within this long is left behind: a patch never waits longer on it. */
const PUSH_BUDGET_MS = 1_000;

/**
 * Live previews of design documents: each is a tab of the managed browser whose document is the
 * export's HTML (one render tree). After a change the new markup is pushed into the page with one
 * Runtime.evaluate that swaps the page wrapper in place: no navigation, so no blank frame, scroll
 * and the tab's other state stay. Pushes are driven by the change (the handler calls `refresh`),
 * never by polling, and one per preview runs at a time (a newer state replaces a queued one).
 */
export class CanvasPreviews {
  private readonly previews = new Map<string, Preview>();
  private readonly pushing = new Map<string, Promise<void>>();

  constructor(private readonly manager: BrowserManager) {}

  /** Opens a preview tab of `doc` (made the caller's active tab). */
  async open(doc: string, document: CanvasDocument, options: RenderOptions): Promise<{ tab: string }> {
    canvas().renderTree(document, options); // an unknown page or mode fails here, before a tab is opened
    return this.manager.structural(async (browser) => {
      const page = await this.manager.newTab(browser);
      try {
        // the document is written into the blank tab: no URL to load, no request leaves the browser
        await page.session.send('Page.setDocumentContent', {
          frameId: page.mainFrameId,
          html: canvas().exportHtml(document, options),
        });
        await browser.activate(page.id).catch(() => undefined);
      } catch (error) {
        await browser.closePage(page.id).catch(() => undefined);
        throw error;
      }
      this.previews.set(page.id, { page, doc, options });
      // navigated elsewhere (goto, a link): the tab is no preview any more
      const off = page.onEpoch(() => {
        if (this.previews.get(page.id)?.page === page) this.previews.delete(page.id);
        off();
      });
      return { tab: page.id };
    });
  }

  /** The document a tab previews, if it is a live preview. */
  docOf(tabId: string): string | undefined {
    const preview = this.previews.get(tabId);
    if (preview?.page.closed) this.previews.delete(tabId);
    return this.previews.get(tabId)?.doc;
  }

  /**
   * Ends every preview of `doc` (it was deleted): the tabs stay open with their last state but are no
   * one's preview, so a new document that takes the same id never shows up in them.
   */
  end(doc: string): void {
    for (const [tabId, preview] of this.previews) if (preview.doc === doc) this.previews.delete(tabId);
  }

  /**
   * Pushes `document` into every open preview of `doc`; resolves when they show it, or after the
   * push budget (a hung tab never holds up a patch). Never throws: a preview that fails is dropped.
   */
  async refresh(doc: string, document: CanvasDocument): Promise<void> {
    const pushes: Promise<void>[] = [];
    for (const [tabId, preview] of this.previews) {
      if (preview.doc !== doc) continue;
      if (preview.page.closed) {
        this.previews.delete(tabId);
        continue;
      }
      pushes.push(this.push(tabId, preview, document));
    }
    if (pushes.length === 0) return;
    let timer: NodeJS.Timeout | undefined;
    const budget = new Promise<void>((resolve) => (timer = setTimeout(resolve, PUSH_BUDGET_MS)));
    await Promise.race([Promise.all(pushes), budget]);
    clearTimeout(timer);
  }

  private push(tabId: string, preview: Preview, document: CanvasDocument): Promise<void> {
    const previous = this.pushing.get(tabId) ?? Promise.resolve();
    const next = previous.then(async () => {
      let markup: string;
      let title: string;
      try {
        markup = canvas().renderMarkup(document, preview.options);
        title = canvas().renderTree(document, preview.options).title;
      } catch {
        // the page it showed was removed (or the mode): the preview keeps its last state
        return;
      }
      await preview.page
        .evaluate(swapExpression(markup, title, document.revision), { timeoutMs: PUSH_BUDGET_MS })
        .catch(() => {
          if (preview.page.closed) this.previews.delete(tabId);
        });
    });
    this.pushing.set(tabId, next);
    void next.finally(() => {
      if (this.pushing.get(tabId) === next) this.pushing.delete(tabId);
    });
    return next;
  }
}

/** A JS string literal safe inside a script (JSON leaves U+2028/U+2029 raw). */
function literal(value: string): string {
  return JSON.stringify(value)
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029');
}

/**
 * Replaces the body's content with the new markup in one synchronous step (the browser paints the
 * old or the new state, never an empty one) and records the revision shown on <html>.
 */
function swapExpression(markup: string, title: string, revision: number): string {
  return `(() => {
  const template = document.createElement('template');
  template.innerHTML = ${literal(markup)};
  document.body.replaceChildren(template.content);
  document.title = ${literal(title)};
  document.documentElement.dataset.canvasRevision = ${literal(String(revision))};
  return true;
})()`;
}
