import { Session } from '@argus/cdp';
import { clickAt } from '@argus/test-kit';

/**
 * One of the extension's own pages (side panel, popup) opened in a tab of the user's browser, as
 * a person would use it: buttons are pressed with real CDP mouse input at their boxes, and waits
 * are the page's own MutationObserver resolving (no polling from the test).
 */
export class ExtensionPage {
  private constructor(
    private readonly root: Session,
    private readonly session: Session,
    readonly targetId: string,
  ) {}

  static async open(root: Session, url: string): Promise<ExtensionPage> {
    // blank first, then navigate: Page.navigate answers once the extension page's document is
    // committed, so the waits below run in it rather than in a blank page about to be replaced
    const { targetId } = await root.send('Target.createTarget', { url: 'about:blank' });
    const { sessionId } = await root.send('Target.attachToTarget', { targetId, flatten: true });
    const page = new ExtensionPage(root, new Session(root.transport, sessionId, targetId), targetId);
    await page.session.send('Page.navigate', { url });
    await page.waitFor(`document.readyState === 'complete'`, 'the extension page to load');
    return page;
  }

  async evaluate<T>(expression: string): Promise<T> {
    const response = (await this.session.send('Runtime.evaluate', {
      expression,
      awaitPromise: true,
      returnByValue: true,
    })) as { result: { value?: unknown }; exceptionDetails?: { text?: string } };
    if (response.exceptionDetails)
      throw new Error(`evaluation failed in the extension page: ${JSON.stringify(response.exceptionDetails)}`);
    return response.result.value as T;
  }

  /** Resolves once `condition` (a JS expression) is true in the page; checked on every DOM change. */
  async waitFor(condition: string, what: string, timeoutMs = 15_000): Promise<void> {
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`timed out waiting for ${what}`)), timeoutMs);
    });
    const waited = this.evaluate(
      `new Promise((resolve) => {
        const check = () => { try { if (${condition}) { observer.disconnect(); resolve(true); } } catch {} };
        const observer = new MutationObserver(check);
        observer.observe(document, { subtree: true, childList: true, characterData: true, attributes: true });
        if (document.readyState !== 'complete') addEventListener('load', check, { once: true });
        check();
      })`,
    );
    try {
      await Promise.race([waited, timeout]);
    } finally {
      clearTimeout(timer);
    }
  }

  /**
   * Presses the element like a person: the page brought to the front (a person looks at what they
   * click; a hidden tab's renderer answers input late or drops it before its first frame), a frame
   * drawn, then the mouse moved to its centre, pressed, released.
   */
  async click(selector: string): Promise<void> {
    await this.session.send('Page.bringToFront');
    await this.evaluate(`new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve)))`);
    const point = await this.evaluate<{ x: number; y: number } | null>(
      `(() => { const el = document.querySelector(${JSON.stringify(selector)}); if (!el) return null; const r = el.getBoundingClientRect(); return { x: r.left + r.width / 2, y: r.top + r.height / 2 }; })()`,
    );
    if (!point) throw new Error(`no ${selector} in the extension page`);
    await clickAt(this.session, point);
  }

  text(selector: string): Promise<string> {
    return this.evaluate<string>(`document.querySelector(${JSON.stringify(selector)})?.textContent ?? ''`);
  }

  async close(): Promise<void> {
    await this.root.send('Target.closeTarget', { targetId: this.targetId }).catch(() => undefined);
  }
}
