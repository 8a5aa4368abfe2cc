/**
 * Drives the annotation picker (`argus annotate`, the popup's "Annotate this page") like a person:
 * real CDP input events (mouse moves and clicks, key presses) on the tab's own session, while the
 * picker waits. Works the same in managed and extension mode (there the session goes through
 * chrome.debugger). Takes anything shaped like `@argus/cdp`'s Page, so the kit needs no dependency
 * on it: the daemon's and the plugin's tests pass the daemon's own page.
 */

/** @typedef {{ send(method: string, params?: object): Promise<unknown> }} InputSession */
/** @typedef {{ session: InputSession, evaluate(expression: string): Promise<unknown> }} PickerPage */

/**
 * A person's click at a point (viewport CSS px): the mouse moved there, the left button pressed, released.
 * @param {InputSession} session
 * @param {{ x: number, y: number }} point
 */
export async function clickAt(session, point) {
  await session.send('Input.dispatchMouseEvent', { type: 'mouseMoved', x: point.x, y: point.y });
  for (const type of ['mousePressed', 'mouseReleased'])
    await session.send('Input.dispatchMouseEvent', {
      type,
      x: point.x,
      y: point.y,
      button: 'left',
      buttons: type === 'mousePressed' ? 1 : 0,
      clickCount: 1,
    });
}

export class PickerDriver {
  /** @param {PickerPage} page */
  constructor(page) {
    this.page = page;
  }

  /** Resolves once the picker's host element is in the document (the page decides: a MutationObserver). */
  async ready() {
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

  /**
   * The centre of the first element matching `selector` (main world, viewport CSS px).
   * @param {string} selector
   * @returns {Promise<{ x: number, y: number }>}
   */
  async centre(selector) {
    return /** @type {{ x: number, y: number }} */ (
      await this.page.evaluate(
        `(() => { const r = document.querySelector(${JSON.stringify(selector)}).getBoundingClientRect(); return { x: r.left + r.width / 2, y: r.top + r.height / 2 }; })()`,
      )
    );
  }

  /** @param {{ x: number, y: number }} point */
  async move(point) {
    await this.page.session.send('Input.dispatchMouseEvent', { type: 'mouseMoved', x: point.x, y: point.y });
  }

  /** @param {{ x: number, y: number }} point */
  async click(point) {
    await clickAt(this.page.session, point);
  }

  /**
   * Types text one key at a time (keyDown with text, keyUp), into whatever has focus.
   * @param {string} text
   */
  async type(text) {
    for (const key of text) {
      await this.page.session.send('Input.dispatchKeyEvent', { type: 'keyDown', key, text: key, unmodifiedText: key });
      await this.page.session.send('Input.dispatchKeyEvent', { type: 'keyUp', key });
    }
  }

  /** @param {'Enter' | 'Escape'} key */
  async press(key) {
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

  /**
   * The picker's own nodes (inside its closed shadow root), read through CDP's DOM domain.
   * @returns {Promise<Array<{ nodeId: number, backendNodeId: number, tag: string, cls: string, text: string }>>}
   */
  async pickerNodes() {
    const { root } = /** @type {{ root: DomNode }} */ (
      await this.page.session.send('DOM.getDocument', { depth: -1, pierce: true })
    );
    /** @type {Array<{ nodeId: number, backendNodeId: number, tag: string, cls: string, text: string }>} */
    const found = [];
    /** @param {DomNode} node @param {boolean} inPicker */
    const walk = (node, inPicker) => {
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
    walk(root, false);
    return found;
  }

  /**
   * Clicks a button of the picker (Send, Cancel) at its box, as a person would.
   * @param {'send' | 'cancel'} cls
   */
  async clickPickerButton(cls) {
    const button = (await this.pickerNodes()).find((node) => node.tag === 'BUTTON' && node.cls === cls);
    if (!button) throw new Error(`no ${cls} button in the picker`);
    const { model } = /** @type {{ model: { content: number[] } }} */ (
      await this.page.session.send('DOM.getBoxModel', { backendNodeId: button.backendNodeId })
    );
    const [x1, y1, , , x3, y3] = model.content;
    await this.click({ x: ((x1 ?? 0) + (x3 ?? 0)) / 2, y: ((y1 ?? 0) + (y3 ?? 0)) / 2 });
  }
}

/**
 * @typedef {{ nodeId: number, backendNodeId: number, nodeType: number, nodeName: string, nodeValue?: string,
 *   attributes?: string[], children?: DomNode[], shadowRoots?: DomNode[] }} DomNode
 */
