import type { Page } from '@argus/cdp';
import { evalValue, frameContext, type FrameContext } from './frame-eval.js';
import type { RefEntry } from './ref-registry.js';

const OVERLAY_ID = '__argus_overlay__';

/**
 * Runs in the page (isolated world). Draws a box and a ref label over each element. Positions are
 * document coordinates so the overlay is right in full-page screenshots too.
 */
function drawOverlay(overlayId: string, token: string, items: Array<[number, string]>): number {
  const api = (globalThis as unknown as { __argus?: { get(id: number, token: string): Element | null } }).__argus;
  document.getElementById(overlayId)?.remove();
  if (!api) return 0;
  const root = document.createElement('div');
  root.id = overlayId;
  root.setAttribute('aria-hidden', 'true');
  root.style.cssText = 'position:absolute;left:0;top:0;width:0;height:0;z-index:2147483647;pointer-events:none;';
  let drawn = 0;
  for (const [id, ref] of items) {
    const el = api.get(id, token);
    if (!el) continue;
    const rect = el.getBoundingClientRect();
    if (rect.width <= 0 || rect.height <= 0) continue;
    const x = rect.left + window.scrollX;
    const y = rect.top + window.scrollY;
    const box = document.createElement('div');
    box.style.cssText = `position:absolute;left:${x}px;top:${y}px;width:${rect.width}px;height:${rect.height}px;outline:2px solid rgba(255,0,102,.85);box-sizing:border-box;`;
    const tag = document.createElement('div');
    tag.textContent = ref;
    tag.style.cssText = `position:absolute;left:${x}px;top:${Math.max(0, y - 14)}px;font:bold 11px/13px monospace;color:#fff;background:rgba(255,0,102,.9);padding:0 3px;border-radius:2px;white-space:nowrap;`;
    root.append(box, tag);
    drawn++;
  }
  document.documentElement.append(root);
  return drawn;
}

export async function installOverlay(
  ctx: FrameContext,
  token: string,
  items: Array<[number, string]>,
): Promise<number> {
  return evalValue<number>(
    ctx,
    `(${drawOverlay.toString()})(${JSON.stringify(OVERLAY_ID)}, ${JSON.stringify(token)}, ${JSON.stringify(items)})`,
  );
}

export async function removeOverlay(ctx: FrameContext): Promise<void> {
  await evalValue(ctx, `document.getElementById(${JSON.stringify(OVERLAY_ID)})?.remove()`);
}

/** Draws the label of each ref of `refs` (current epoch only) over its element, frame by frame; returns the remover. */
export async function annotateRefs(page: Page, refs: RefEntry[]): Promise<() => Promise<void>> {
  const byFrame = new Map<string, RefEntry[]>();
  for (const entry of refs) {
    if (entry.epoch !== page.epoch) continue;
    const list = byFrame.get(entry.frameId) ?? [];
    list.push(entry);
    byFrame.set(entry.frameId, list);
  }
  const contexts: FrameContext[] = [];
  await Promise.all(
    [...byFrame].map(async ([frameId, entries]) => {
      const ctx = await frameContext(page, frameId);
      if (!ctx) return;
      const token = entries[0]?.token ?? '';
      await installOverlay(
        ctx,
        token,
        entries.map((entry) => [entry.id, entry.ref] as [number, string]),
      ).catch(() => undefined);
      contexts.push(ctx);
    }),
  );
  return async () => {
    await Promise.all(contexts.map((ctx) => removeOverlay(ctx).catch(() => undefined)));
  };
}
