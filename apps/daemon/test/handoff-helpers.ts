import type { Page } from '@argus/cdp';
import { BANNER_TAG } from '../src/handoff/banner.js';

interface DomNode {
  nodeId: number;
  nodeName: string;
  children?: DomNode[];
  shadowRoots?: DomNode[];
}

/**
 * Clicks the banner's Done button as a person would: real mouse events at its box (found through the
 * closed shadow root by CDP), again if the press missed it, as a person would press again. The page
 * can move under a press: the user's browser shows its "debugging this browser" bar when the
 * extension attaches, the viewport loses 63 px and the fixed banner moves up with it. A press at
 * the box measured before that went below the banner about one run in two on a fast machine (the
 * hand-off never ended), even with the point checked to hit the button just before (the bar came
 * between). A press that reached the button turns it to "Returning…".
 */
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
  const deadline = performance.now() + 10_000;
  // the hand-off may have ended already, its banner removed: the press reached it
  const label = () =>
    page.session.send('DOM.getOuterHTML', { nodeId: button.nodeId }).then(
      ({ outerHTML }) => outerHTML.replace(/<[^>]*>/g, ''),
      () => 'gone',
    );
  for (;;) {
    const { model } = (await page.session.send('DOM.getBoxModel', { nodeId: button.nodeId })) as {
      model: { content: number[] };
    };
    const [x1 = 0, y1 = 0, , , x3 = 0, y3 = 0] = model.content;
    const x = (x1 + x3) / 2;
    const y = (y1 + y3) / 2;
    await page.session.send('Input.dispatchMouseEvent', { type: 'mouseMoved', x, y });
    await page.session.send('Input.dispatchMouseEvent', { type: 'mousePressed', x, y, button: 'left', clickCount: 1 });
    await page.session.send('Input.dispatchMouseEvent', { type: 'mouseReleased', x, y, button: 'left', clickCount: 1 });
    // the click handler runs with the release: the label has changed by the time it is read
    if ((await label()) !== 'Done') return;
    if (performance.now() > deadline) throw new Error(`pressing the Done button at (${x}, ${y}) did nothing`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
