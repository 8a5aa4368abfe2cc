import { statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { useHarness } from './harness.js';
import { PickerDriver } from '@argus/test-kit';

// Issue 20: `argus annotate` in a managed (headless) browser, driven by real CDP input events.

describe('argus annotate (managed browser)', () => {
  const h = useHarness();

  async function openLogin() {
    const tab = (await h.client.tabs.open.mutate({ url: h.server.urlFor('/login.html') })).id;
    await h.client.input.fill.mutate({ tab, target: '#pass', text: 'hunter2' });
    // the page counts clicks that reach its form: the picker's glass pane must take them all
    const page = await h.daemon.services.manager.page(tab);
    await page.evaluate(
      `window.__clicks = 0; document.addEventListener('click', (e) => { if (e.target.closest('form')) window.__clicks++; }, true); true`,
    );
    return { tab, page, driver: new PickerDriver(page) };
  }

  it('hover labels, clicks, typed notes and Send give locators that resolve to the clicked elements', async () => {
    const { tab, page, driver } = await openLogin();
    const pending = h.client.inbox.annotate.mutate({ tab, note: 'Which parts are wrong?', timeout: 120 });
    await driver.ready();

    const button = await driver.centre('#submit');
    await driver.move(button);
    const hovered = await driver.pickerNodes();
    expect(hovered.some((node) => node.cls === 'tag ' && node.text.includes('button "Sign in"'))).toBe(true);
    expect(hovered.some((node) => node.cls === 'prompt' && node.text === 'Which parts are wrong?')).toBe(true);

    await driver.click(button);
    await driver.type('Make it green');
    await driver.click(await driver.centre('#pass'));
    await driver.type('Show the rules');
    await driver.clickPickerButton('send');

    const result = await pending;
    expect(result.status).toBe('sent');
    const annotation = result.annotation!;
    expect(annotation.url).toContain('/login.html');
    expect(annotation.title).toBe('Sign in');
    expect(annotation.source).toBe('command');
    expect(annotation.cut).toBeNull();
    expect(annotation.elements.map((element) => element.note)).toEqual(['Make it green', 'Show the rules']);
    const [first, second] = annotation.elements as [
      (typeof annotation.elements)[number],
      (typeof annotation.elements)[number],
    ];
    expect(first).toMatchObject({ role: 'button', name: 'Sign in', locator: 'role=button[name="Sign in"]' });
    expect(first.box.width).toBeGreaterThan(0);
    expect(second).toMatchObject({ role: 'textbox', locator: 'label="Password"', value: '[masked]', masked: true });
    expect(JSON.stringify(result)).not.toContain('hunter2');
    // no click of the person reached the page's elements: the glass pane took them
    expect(await page.evaluate('window.__clicks')).toBe(0);
    // and the picker is gone
    expect(await page.evaluate(`!!document.querySelector('argus-annotate')`)).toBe(false);

    // the locators and refs resolve to the elements that were clicked
    const hoveredId = () => page.evaluate(`[...document.querySelectorAll(':hover')].at(-1)?.id`);
    await h.client.input.hover.mutate({ tab, target: second.locator! });
    expect(await hoveredId()).toBe('pass');
    await h.client.input.hover.mutate({ tab, target: first.locator! });
    expect(await hoveredId()).toBe('submit');
    await h.client.input.hover.mutate({ tab, target: second.ref! });
    expect(await hoveredId()).toBe('pass');

    // it is in the inbox, unread; the file is private
    const listed = await h.client.inbox.list.query({});
    expect(listed.items.at(-1)).toMatchObject({
      id: annotation.id,
      elements: 2,
      read: false,
      firstNote: 'Make it green',
    });
    expect(statSync(join(h.daemon.stateDir, 'inbox.json')).mode & 0o777).toBe(0o600);
    const consumed = await h.client.inbox.consume.mutate({});
    expect(consumed.items.map((item) => item.id)).toContain(annotation.id);
    expect((await h.client.inbox.show.query({ id: annotation.id })).item.read).toBe(true);
  });

  it('Enter sends, Escape cancels, a short timeout ends it, and the page cannot reach the binding', async () => {
    const { tab, driver, page } = await openLogin();
    let pending = h.client.inbox.annotate.mutate({ tab, timeout: 120 });
    await driver.ready();
    // the binding lives in Argus's isolated world only
    expect(await page.evaluate(`Object.keys(window).filter((key) => key.startsWith('__argus')).length`)).toBe(0);
    await driver.click(await driver.centre('#user'));
    await driver.type('name here');
    await driver.press('Enter');
    const sent = await pending;
    expect(sent.status).toBe('sent');
    expect(sent.annotation?.elements[0]).toMatchObject({
      locator: 'label="Username"',
      note: 'name here',
      masked: false,
    });

    pending = h.client.inbox.annotate.mutate({ tab, timeout: 120 });
    await driver.ready();
    await driver.click(await driver.centre('#submit'));
    await driver.press('Escape');
    expect(await pending).toMatchObject({ status: 'cancelled', annotation: null, reason: 'the person cancelled' });

    pending = h.client.inbox.annotate.mutate({ tab, timeout: 120 });
    await driver.ready();
    await driver.clickPickerButton('cancel');
    expect(await pending).toMatchObject({ status: 'cancelled' });

    const timedOut = await h.client.inbox.annotate.mutate({ tab, timeout: 1 });
    expect(timedOut).toMatchObject({ status: 'timeout', annotation: null });
    expect(await page.evaluate(`!!document.querySelector('argus-annotate')`)).toBe(false);
  });

  it("the tab takes the agent's other commands while the picker waits for the person", async () => {
    const { tab, driver } = await openLogin();
    const pending = h.client.inbox.annotate.mutate({ tab, timeout: 120 });
    await driver.ready();
    // the picker waited in the tab's queue: every other command on the tab waited behind it
    const within = <T>(call: Promise<T>) =>
      Promise.race([call, new Promise<'blocked'>((done) => setTimeout(() => done('blocked'), 5_000))]);
    expect(await within(h.client.page.url.query({ tab }))).toMatchObject({
      url: expect.stringContaining('/login.html'),
    });
    expect(await within(h.client.read.text.query({ tab, target: 'h1' }))).toMatchObject({ text: 'Sign in' });
    // and the picker still works after them
    await driver.clickPickerButton('cancel');
    expect(await pending).toMatchObject({ status: 'cancelled', reason: 'the person cancelled' });
  });

  it('a navigation ends the picker', async () => {
    const { tab, driver, page } = await openLogin();
    const pending = h.client.inbox.annotate.mutate({ tab, timeout: 120 });
    await driver.ready();
    await page.evaluate(`location.href = ${JSON.stringify(h.server.urlFor('/buttons.html'))}; true`);
    expect(await pending).toMatchObject({ status: 'cancelled', annotation: null });
  });
});
