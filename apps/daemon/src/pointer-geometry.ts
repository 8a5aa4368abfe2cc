import type { Page } from '@argus/cdp';
import { ArgusError } from '@argus/protocol';
import { type SnapshotEngine, elementBox } from '@argus/snapshot';

export interface Point {
  x: number;
  y: number;
}

const COORDS = /^\s*(-?\d+(?:\.\d+)?)\s*,\s*(-?\d+(?:\.\d+)?)\s*$/;

/** "x,y" -> a point; anything else is a ref or selector (undefined here). */
export function parsePoint(value: string): Point | undefined {
  const match = COORDS.exec(value);
  return match ? { x: Number(match[1]), y: Number(match[2]) } : undefined;
}

/** Centre of an element in viewport coordinates, after scrolling it into view. */
export async function viewportCenter(
  engine: SnapshotEngine,
  page: Page,
  target: string,
  timeoutMs: number,
): Promise<Point> {
  const box = await elementBox(engine, target, { timeoutMs });
  if (box.width <= 0 || box.height <= 0)
    throw new ArgusError('element_not_interactable', `${target} has no size on screen. Pick a visible element.`);
  const { cssVisualViewport } = await page.session.send('Page.getLayoutMetrics');
  return { x: box.x - cssVisualViewport.pageX + box.width / 2, y: box.y - cssVisualViewport.pageY + box.height / 2 };
}

export async function pointFor(engine: SnapshotEngine, page: Page, value: string, timeoutMs: number): Promise<Point> {
  return parsePoint(value) ?? viewportCenter(engine, page, value, timeoutMs);
}
