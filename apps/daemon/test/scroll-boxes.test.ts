import { describe, expect, it } from 'vitest';
import { useHarness } from './harness.js';

const h = useHarness();

const clicked = async (): Promise<unknown> => (await h.client.page.eval.mutate({ js: 'window.clicked ?? null' })).value;

/** Issue 12 §6: a target below the visible part of a scroll box that is itself on screen. */
describe('clicks inside scrolling boxes', () => {
  it('clicks the last message of an inbox list whose box is in view', async () => {
    await h.client.page.goto.mutate({ url: h.server.urlFor('/scroll-boxes.html') });
    await h.client.input.click.mutate({ target: 'text="Message 9"' });
    expect(await clicked()).toBe('message 9');
    expect(
      (await h.client.page.eval.mutate({ js: 'document.getElementById("inbox").scrollTop' })).value,
    ).toBeGreaterThan(0);
  });

  it('scrolls nested scroll boxes and a horizontal one', async () => {
    await h.client.page.goto.mutate({ url: h.server.urlFor('/scroll-boxes.html') });
    await h.client.input.click.mutate({ target: '#deep' });
    expect(await clicked()).toBe('deep');
    await h.client.input.click.mutate({ target: '#right' });
    expect(await clicked()).toBe('right');
    await h.client.input.hover.mutate({ target: 'role=button[name="Message 12"]' });
  });

  it('clicks inside a scroll box of a scrolled iframe', async () => {
    await h.client.page.goto.mutate({ url: h.server.urlFor('/scroll-boxes.html') });
    const snap = await h.client.snapshot.take.mutate({ interactive: true });
    const ref = /"Framed result" (f\d+e\d+)/.exec(snap.text)?.[1];
    expect(ref, snap.text).toBeDefined();
    await h.client.input.click.mutate({ target: ref! });
    expect(await clicked()).toBe('framed');
  });
});

/** A page that asks for smooth scrolling (`scroll-behavior: smooth`, common on sites today) or a key
 * that scrolls: the scroll is done when the command answers, so the next snapshot sees the new view. */
describe('scrolling is done when the command answers', () => {
  const SMOOTH = `<!doctype html><title>Smooth</title><style>html { scroll-behavior: smooth } p { height: 400px }</style>
<div id="feed"></div><script>
let n = 0;
const more = () => { for (let i = 0; i < 5; i++) { const p = document.createElement('p'); p.textContent = 'item ' + ++n; feed.append(p); } };
more();
addEventListener('scroll', () => { if (innerHeight + scrollY >= document.body.scrollHeight - 5 && n < 20) more(); });
</script>`;

  it('scroll by a distance under scroll-behavior: smooth reports the new position', async () => {
    await h.client.page.goto.mutate({ url: `data:text/html,${encodeURIComponent(SMOOTH)}` });
    const result = await h.client.page.scroll.mutate({ dy: 600 });
    expect(result.scrollY).toBe(600);
  });

  it('End scrolls at once: an infinite feed has loaded more by the next read', async () => {
    await h.client.page.goto.mutate({ url: `data:text/html,${encodeURIComponent(SMOOTH)}` });
    await h.client.input.press.mutate({ key: 'End' });
    const position = (await h.client.page.eval.mutate({ js: 'scrollY' })).value;
    expect(position).toBeGreaterThan(1000);
  });
});
