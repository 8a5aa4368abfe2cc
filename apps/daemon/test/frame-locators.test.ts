import { describe, expect, it } from 'vitest';
import { useHarness, useOtherSite } from './harness.js';

/**
 * Locators in the frame chosen with `argus frame` are resolved and waited for as in the top
 * document: a wait that the frame's navigation cuts short goes on in the frame's next document,
 * in process or out of it.
 */

const h = useHarness();
// localhost and 127.0.0.1 are different sites
const other = useOtherSite();

const js = async <T>(code: string): Promise<T> => (await h.client.page.eval.mutate({ js: code })).value as T;

/** The host page with its iframe selected; the frame shows step one, with no Ready button. */
async function selectStepOne(): Promise<void> {
  await h.client.dom.frame.mutate({ main: true });
  await h.client.page.goto.mutate({ url: h.server.urlFor('/frame-nav.html') });
  const chosen = await h.client.dom.frame.mutate({ target: '#inner' });
  expect(chosen.url).toContain('frame-nav-a.html');
  expect(await js('document.title')).toBe('Step one');
}

/** The selected frame moves to `url` after `ms` (the command sent next is then waiting). */
const leaveAfter = (url: string, ms: number) =>
  js(`setTimeout(() => { location.href = ${JSON.stringify(url)}; }, ${ms}); true`);

describe('locators in a selected frame that navigates', () => {
  it('a click on a locator waits in the frame and acts in its next document', async () => {
    await selectStepOne();
    await leaveAfter('frame-nav-b.html', 1000);
    const clicked = await h.client.input.click.mutate({ target: 'role=button[name="Ready"]', timeoutMs: 10_000 });
    expect(clicked.element).toMatch(/button "Ready"/);
    expect((await h.client.read.text.query({ target: '#result' })).text).toBe('Ready clicked');
  });

  it('argus wait for a locator goes on in the frame next document', async () => {
    await selectStepOne();
    await leaveAfter('frame-nav-b.html', 1000);
    const waited = await h.client.page.wait.mutate({ selector: 'text=Ready', timeoutMs: 10_000 });
    expect(waited.matched).toBe('text=Ready');
    expect(waited.waitedMs).toBeGreaterThan(500);
    expect(await js('document.title')).toBe('Step two');
  });

  it('follows a frame that moves to another site (out of process) during the wait', async () => {
    await selectStepOne();
    await leaveAfter(other.server.urlFor('/frame-nav-b.html'), 1000);
    await h.client.input.click.mutate({ target: 'text="Ready"', timeoutMs: 10_000 });
    expect((await h.client.read.text.query({ target: '#result' })).text).toBe('Ready clicked');
    expect(await js('location.hostname')).toBe('localhost');
  });
});
