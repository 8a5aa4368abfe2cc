import type { Page } from '@argus/cdp';
import { clickAt } from './mouse.js';

/**
 * Drives the annotation picker like a person: real CDP input events (mouse moves and clicks, key
 * presses) on the tab's own session, while `argus annotate` waits. Works the same in managed and
 * extension mode (there the session goes through chrome.debugger).
 */
export class PickerDriver {
  constructor(private readonly page: Page) {}

  /** Resolves once the picker's host element is in the document (the page decides: a MutationObserver). */
  async ready(): Promise<void> {
    await this.page.evaluate(
      `new Promise((resolve) => {
        if (document.querySelector('argus-annotate')) return resolve(true);
        const observer = new MutationObserver(() => {
          if (document.querySelector('argus-annotate')) { observer.disconnect(); resolve(true); }
        });
        observer.observe(document.documentElement, { childList: true });
      })`,
    );
  }

  /** The centre of the first element matching `selector` (main world, viewport CSS px). */
  async centre(selector: string): Promise<{ x: number; y: number }> {
    return this.page.evaluate<{ x: number; y: number }>(
      `(() => { const r = document.querySelector(${JSON.stringify(selector)}).getBoundingClientRect(); return { x: r.left + r.width / 2, y: r.top + r.height / 2 }; })()`,
    );
  }

  async move(point: { x: number; y: number }): Promise<void> {
    await this.page.session.send('Input.dispatchMouseEvent', { type: 'mouseMoved', x: point.x, y: point.y });
  }

  async click(point: { x: number; y: number }): Promise<void> {
    await clickAt(this.page.session, point);
  }

  /** Types text one key at a time (keyDown with text, keyUp), into whatever has focus. */
  async type(text: string): Promise<void> {
    for (const key of text) {
      await this.page.session.send('Input.dispatchKeyEvent', { type: 'keyDown', key, text: key, unmodifiedText: key });
      await this.page.session.send('Input.dispatchKeyEvent', { type: 'keyUp', key });
    }
  }

  async press(key: 'Enter' | 'Escape'): Promise<void> {
    const code = key === 'Enter' ? 13 : 27;
    const text = key === 'Enter' ? '\r' : undefined;
    await this.page.session.send('Input.dispatchKeyEvent', {
      type: key === 'Enter' ? 'keyDown' : 'rawKeyDown',
      key,
      code: key,
      windowsVirtualKeyCode: code,
      ...(text ? { text } : {}),
    });
    await this.page.session.send('Input.dispatchKeyEvent', {
      type: 'keyUp',
      key,
      code: key,
      windowsVirtualKeyCode: code,
    });
  }

  /** The picker's own nodes (inside its closed shadow root), read through CDP's DOM domain. */
  async pickerNodes(): Promise<PickerNode[]> {
    const { root } = await this.page.session.send('DOM.getDocument', { depth: -1, pierce: true });
    const found: PickerNode[] = [];
    const walk = (node: DomNode, inPicker: boolean) => {
      const here = inPicker || node.nodeName === 'ARGUS-ANNOTATE';
      if (here && node.nodeType === 1) {
        const attrs = node.attributes ?? [];
        const cls = attrs[attrs.indexOf('class') + 1];
        const text = (node.children ?? [])
          .filter((child) => child.nodeType === 3)
          .map((child) => child.nodeValue ?? '')
          .join('');
        found.push({
          nodeId: node.nodeId,
          backendNodeId: node.backendNodeId,
          tag: node.nodeName,
          cls: attrs.includes('class') ? (cls ?? '') : '',
          text,
        });
      }
      for (const child of [...(node.children ?? []), ...(node.shadowRoots ?? [])]) walk(child, here);
    };
    walk(root as DomNode, false);
    return found;
  }

  /** Clicks a button of the picker (Send, Cancel) at its box, as a person would. */
  async clickPickerButton(cls: 'send' | 'cancel'): Promise<void> {
    const button = (await this.pickerNodes()).find((node) => node.tag === 'BUTTON' && node.cls === cls);
    if (!button) throw new Error(`no ${cls} button in the picker`);
    const { model } = await this.page.session.send('DOM.getBoxModel', { backendNodeId: button.backendNodeId });
    const [x1, y1, , , x3, y3] = model.content;
    await this.click({ x: ((x1 ?? 0) + (x3 ?? 0)) / 2, y: ((y1 ?? 0) + (y3 ?? 0)) / 2 });
  }
}

export interface PickerNode {
  nodeId: number;
  backendNodeId: number;
  tag: string;
  cls: string;
  text: string;
}

interface DomNode {
  nodeId: number;
  backendNodeId: number;
  nodeType: number;
  nodeName: string;
  nodeValue?: string;
  attributes?: string[];
  children?: DomNode[];
  shadowRoots?: DomNode[];
}
