import { type Browser, FetchOwner, type Page } from '@argus/cdp';
import { ArgusError } from '@argus/protocol';
import type { Access } from './access.js';
import type { Logger } from './logger.js';

/**
 * Keeps the browser from loading local files outside the allowed area, whoever asks: a `goto`, a
 * page's link, frame, `<object>`, `location = 'file:…'`, a popup, `view-source:file:`. Chrome
 * already refuses http(s) pages navigating or redirecting to file:, but a file: page may open any
 * other file, so every file: load is paused browser-wide (Fetch on the browser target sees them all,
 * navigations and subresources alike) and failed unless the path policy allows it.
 *
 * Where the Fetch domain is not available (an extension relay exposes no browser target), the read
 * guard below is the net: content from a forbidden file is never returned.
 */
export async function guardFileUrls(browser: Browser, access: Access, log: Logger): Promise<void> {
  // the browser session's one Fetch owner (each tab session has its own: guard and routes)
  const owner = new FetchOwner(browser.router.root);
  owner.add({
    patterns: () => [{ urlPattern: 'file:*' }],
    decide(event) {
      const refusal = access.browserRefusal(event.request.url);
      if (refusal === undefined) return { action: 'continue' };
      log.warn('file_url.blocked', { url: event.request.url, resourceType: event.resourceType, reason: refusal });
      return { action: 'fail', reason: 'AccessDenied' };
    },
  });
  await owner.refresh();
}

/**
 * The read guard: refuses a command's result while any frame of its tab shows a file the policy
 * refuses (so even content that got in some other way is never handed out).
 */
export function assertPageAllowed(page: Page, access: Access): void {
  for (const frame of page.frames.all()) {
    // a frame that has committed no document yet (an iframe whose load failed) has no URL and shows nothing
    if (frame.url === '') continue;
    const refusal = access.browserRefusal(frame.url);
    if (refusal === undefined) continue;
    throw new ArgusError(
      'url_forbidden',
      `Tab ${page.id} shows ${frame.url}, which is ${refusal}; its content is not returned. Navigate the tab elsewhere (\`argus goto <url>\`) or close it.`,
      {
        details: { url: frame.url, tab: page.id },
      },
    );
  }
}
