import type { Page } from '@argus/cdp';
import { BANNER_TAG } from '../src/handoff/banner.js';

interface DomNode {
  nodeId: number;
  nodeName: string;
  children?: DomNode[];
  shadowRoots?: DomNode[];
}

/** Clicks the banner's Done button as a person would: real mouse events at its box (found through the closed shadow root by CDP). */
export async function pressDone(page: Page): Promise<void> {
  const { root } = (await page.session.send('DOM.getDocument', { depth: -1, pierce: true })) as { root: DomNode };
  const find = (node: DomNode, inBanner: boolean): DomNode | undefined => {
    const here = inBanner || node.nodeName.toLowerCase() === BANNER_TAG;
    if (here && node.nodeName === 'BUTTON') return node;
    for (const child of [...(node.shadowRoots ?? []), ...(node.children ?? [])]) {
      const found = find(child, here);
      if (found) return found;
    }
    return undefined;
  };
  const button = find(root, false);
  if (!button) throw new Error('no Done button in the page');
  const { model } = (await page.session.send('DOM.getBoxModel', { nodeId: button.nodeId })) as {
    model: { content: number[] };
  };
  const [x1 = 0, y1 = 0, , , x3 = 0, y3 = 0] = model.content;
  const x = (x1 + x3) / 2;
  const y = (y1 + y3) / 2;
  await page.session.send('Input.dispatchMouseEvent', { type: 'mouseMoved', x, y });
  await page.session.send('Input.dispatchMouseEvent', { type: 'mousePressed', x, y, button: 'left', clickCount: 1 });
  await page.session.send('Input.dispatchMouseEvent', { type: 'mouseReleased', x, y, button: 'left', clickCount: 1 });
}
