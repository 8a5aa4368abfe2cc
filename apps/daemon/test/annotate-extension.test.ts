import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type PairedExtension, startPairedExtension } from './extension-setup.js';
import { PickerDriver } from '@argus/test-kit';

// Issue 20: `argus annotate` on the user's own tab, through the extension (chrome.debugger): the
// picker, its binding and the person's input events all go through the relay.

describe('argus annotate through the extension', () => {
  let setup: PairedExtension;

  beforeAll(async () => {
    setup = await startPairedExtension('annotate-ext');
  });

  afterAll(async () => {
    await setup?.close();
  });

  it("picks elements of the user's tab; the locator resolves to the clicked element", async () => {
    const tab = await setup.openUserTab('/login.html');
    await setup.client.input.fill.mutate({ tab, target: '#pass', text: 'hunter2' });

    const page = await setup.daemon.services.manager.page(tab);
    const driver = new PickerDriver(page);
    const pending = setup.client.inbox.annotate.mutate({ tab, note: 'Point at the login button', timeout: 120 });
    await driver.ready();
    const button = await driver.centre('#submit');
    await driver.move(button);
    expect((await driver.pickerNodes()).some((node) => node.text.includes('button "Sign in"'))).toBe(true);
    await driver.click(button);
    await driver.type('this one');
    await driver.click(await driver.centre('#pass'));
    await driver.clickPickerButton('send');

    const result = await pending;
    expect(result.status).toBe('sent');
    expect(result.annotation?.elements).toMatchObject([
      { note: 'this one', role: 'button', locator: 'role=button[name="Sign in"]' },
      { note: '', locator: 'label="Password"', value: '[masked]', masked: true },
    ]);
    expect(JSON.stringify(result)).not.toContain('hunter2');
    expect(await page.evaluate(`!!document.querySelector('argus-annotate')`)).toBe(false);

    await setup.client.input.hover.mutate({ tab, target: result.annotation!.elements[0]!.locator! });
    expect(await page.evaluate(`[...document.querySelectorAll(':hover')].at(-1)?.id`)).toBe('submit');
    const listed = await setup.client.inbox.list.query({ unread: true });
    expect(listed.items.map((item) => item.id)).toContain(result.annotation!.id);
  });
});
