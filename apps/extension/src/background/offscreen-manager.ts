const OFFSCREEN_URL = 'offscreen.html';
let creating: Promise<void> | undefined;

/** Creates the offscreen document that owns the relay WebSocket, once. */
export async function ensureOffscreen(): Promise<void> {
  const existing = await chrome.runtime.getContexts({
    contextTypes: [chrome.runtime.ContextType.OFFSCREEN_DOCUMENT],
    documentUrls: [chrome.runtime.getURL(OFFSCREEN_URL)],
  });
  if (existing.length > 0) return;
  creating ??= chrome.offscreen
    .createDocument({
      url: OFFSCREEN_URL,
      // there is no "websocket" reason; WORKERS is the closest honest fit for a long-lived network worker
      reasons: [chrome.offscreen.Reason.WORKERS],
      justification: 'Keeps the connection to the local Argus relay open while the service worker sleeps.',
    })
    .finally(() => (creating = undefined));
  await creating;
}
