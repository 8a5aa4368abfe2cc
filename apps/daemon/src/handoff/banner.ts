import type { Page } from '@argus/cdp';

/** The isolated world the banner lives in: page scripts cannot see its binding or its variables. */
export const BANNER_WORLD = '__argus_handoff';
/** Called by the Done button; exposed only in BANNER_WORLD, so the page itself cannot press Done. */
export const DONE_BINDING = '__argusHandoffDone';
/** The banner's host element (its content is in a closed shadow root). */
export const BANNER_TAG = 'argus-handoff';

/**
 * The banner script, run in BANNER_WORLD of every new document of the tab (top frame only): a
 * small card fixed at the bottom right (no effect on the page's layout) with the reason and a Done
 * button. Styles are set through the CSSOM, which a page's CSP does not block (a <style> element
 * would be). The card comes back if the page removes it, and only a trusted click (a person's,
 * never a page script's synthetic one) calls the binding.
 */
export function bannerSource(reason: string): string {
  return `(() => {
  if (window !== window.top) return;
  const reason = ${JSON.stringify(reason)};
  const tag = ${JSON.stringify(BANNER_TAG)};
  const done = ${JSON.stringify(DONE_BINDING)};
  const css = (el, props) => { for (const [k, v] of Object.entries(props)) el.style.setProperty(k, v, 'important'); return el; };
  let pressed = false;
  const mount = () => {
    if (document.documentElement.dataset.argusHandoff === 'ended' || document.querySelector(tag)) return;
    const host = css(document.createElement(tag), { all: 'initial', position: 'fixed', right: '16px', bottom: '16px', 'z-index': '2147483647', display: 'block' });
    const root = host.attachShadow({ mode: 'closed' });
    const card = css(document.createElement('div'), { display: 'flex', gap: '12px', 'align-items': 'center', 'max-width': '420px', padding: '10px 12px', background: '#1f2937', color: '#f9fafb', font: '14px/1.4 system-ui, sans-serif', 'border-radius': '8px', 'box-shadow': '0 4px 16px rgba(0,0,0,.35)' });
    card.setAttribute('role', 'status');
    const text = css(document.createElement('span'), { flex: '1' });
    const label = css(document.createElement('strong'), { display: 'block', color: '#93c5fd', 'font-size': '12px' });
    label.textContent = 'Argus: your turn';
    text.append(label, document.createTextNode(reason));
    const button = css(document.createElement('button'), { padding: '6px 14px', border: '0', 'border-radius': '6px', background: '#2563eb', color: '#fff', font: '600 14px system-ui, sans-serif', cursor: 'pointer' });
    button.type = 'button';
    button.textContent = pressed ? 'Returning…' : 'Done';
    button.disabled = pressed;
    button.addEventListener('click', (event) => {
      if (!event.isTrusted || pressed || typeof globalThis[done] !== 'function') return;
      pressed = true;
      button.disabled = true;
      button.textContent = 'Returning…';
      globalThis[done]('done');
    });
    card.append(text, button);
    root.append(card);
    (document.body || document.documentElement).append(host);
  };
  const watch = () => {
    mount();
    const observer = new MutationObserver(mount);
    observer.observe(document.documentElement, { childList: true });
    if (document.body) observer.observe(document.body, { childList: true });
  };
  if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', watch, { once: true });
  else watch();
})()`;
}

/** The banner installed in a tab: `remove` takes it away (the script, the binding, the card). */
export interface Banner {
  remove(): Promise<void>;
}

/**
 * Shows the banner in `page` now and after every navigation, and calls `onDone` when the person
 * presses Done (a CDP binding: an event, never a poll).
 */
export async function installBanner(page: Page, reason: string, onDone: () => void): Promise<Banner> {
  const session = page.session;
  const source = bannerSource(reason);
  const off = session.on('Runtime.bindingCalled', (event) => {
    if (event.name === DONE_BINDING) onDone();
  });
  try {
    await session.send('Runtime.addBinding', { name: DONE_BINDING, executionContextName: BANNER_WORLD });
    const { identifier } = await session.send('Page.addScriptToEvaluateOnNewDocument', {
      source,
      worldName: BANNER_WORLD,
    });
    // a banner ended earlier in this same document (extension mode) may come back
    await session.send('Runtime.evaluate', { expression: 'delete document.documentElement.dataset.argusHandoff' });
    // the document already there gets it too, in a world of the same name (so the binding is there)
    const { executionContextId } = await session.send('Page.createIsolatedWorld', {
      frameId: page.mainFrameId,
      worldName: BANNER_WORLD,
    });
    await session.send('Runtime.evaluate', { expression: source, contextId: executionContextId });
    return {
      async remove() {
        off();
        if (page.closed) return;
        await Promise.allSettled([
          session.send('Page.removeScriptToEvaluateOnNewDocument', { identifier }),
          session.send('Runtime.removeBinding', { name: DONE_BINDING }),
          session.send('Runtime.evaluate', {
            expression: `document.documentElement.dataset.argusHandoff = 'ended'; document.querySelector(${JSON.stringify(BANNER_TAG)})?.remove();`,
          }),
        ]);
      },
    };
  } catch (error) {
    off();
    throw error;
  }
}
