import { beforeEach, describe, expect, it } from 'vitest';
import { failure, useHarness } from './harness.js';

const h = useHarness();

const js = async <T>(code: string): Promise<T> => (await h.client.page.eval.mutate({ js: code })).value as T;

/** The page's own record of pointer and mouse events, as `type:id`, and of the buttons it saw clicked. */
const seen = () => js<{ log: string[]; clicked: string[] }>('({ log: window.log, clicked: window.clicked })');

describe('a click whose release lands elsewhere than its press', () => {
  beforeEach(async () => {
    await h.client.page.goto.mutate({ url: h.server.urlFor('/press-release.html') });
  });

  it('fails when the element jumps away as it is pressed, naming where the release went, and presses once', async () => {
    const error = await failure(h.client.input.click.mutate({ target: '#jumpy' }));
    expect(error.code).toBe('element_obscured');
    expect(error.message).toMatch(/pressed, but the release landed on button#under \("Under"\)/);
    expect(error.message).toMatch(/not pressed again/);
    expect(error.details).toMatchObject({ reason: 'released_elsewhere', releasedOn: 'button#under ("Under")' });
    const { log, clicked } = await seen();
    // one press, on the element; no second try
    expect(log.filter((entry) => entry.startsWith('mousedown'))).toEqual(['mousedown:jumpy']);
    expect(log).toContain('mouseup:under');
    expect(clicked).not.toContain('jumpy');
  });

  it('reports done a click whose element the page replaces with a like one as it is pressed (a re-render on mousedown), pressing once', async () => {
    const result = await h.client.input.click.mutate({ target: '#swapped' });
    expect(result.element).toBe('button "Swapped"');
    // no click event reached the old button or the new one: said, with where the release went
    expect(result.goneOnPress).toEqual({ releasedOn: 'button#swapped ("Swapped")', replaced: true });
    const { log, clicked } = await seen();
    expect(log.filter((entry) => entry.startsWith('mousedown'))).toEqual(['mousedown:swapped']);
    expect(clicked).toEqual([]);
  });

  it('reports done, with its effects, a click on a menu item that acts on mousedown and closes its menu, pressing once', async () => {
    const result = await h.client.input.click.mutate({ target: 'role=menuitem[name="Archive"]', diff: true });
    expect(result.element).toMatch(/^menuitem "Archive"/);
    expect(result.goneOnPress).toEqual({ releasedOn: expect.stringMatching(/^section/), replaced: false });
    // the action's report is kept: what the page did on the press shows in the diff
    expect(result.diff).toMatch(/status: archived/);
    expect(await js('window.acted')).toEqual(['archive']);
    expect((await seen()).log.filter((entry) => entry.startsWith('mousedown'))).toEqual(['mousedown:archive']);
  });

  it('reports done a click whose element the page removes on pointerdown (its mouse events go to what was under it)', async () => {
    const result = await h.client.input.click.mutate({ target: '#chip' });
    expect(result.goneOnPress).toMatchObject({ replaced: false });
    expect(await js('window.acted')).toEqual(['chip']);
    expect((await seen()).log.filter((entry) => entry.startsWith('pointerdown'))).toEqual(['pointerdown:chip']);
  });

  it('fails saying nothing was clicked when the element leaves the page as the mouse reaches it', async () => {
    const error = await failure(h.client.input.click.mutate({ target: '#shy', timeoutMs: 2_000 }));
    expect(error.code).toBe('ref_stale');
    expect(error.message).toMatch(/before it was pressed: nothing was clicked/);
    expect(error.details).toMatchObject({ reason: 'detached', clicked: false });
    // the command's timeout, as in every other timeout error (not what was left of it at the retry)
    expect(error.details?.['timeoutMs']).toBe(2_000);
    // the page never saw a press
    expect((await seen()).log.filter((entry) => /down/.test(entry))).toEqual([]);
  });

  it('still reports done a click released where it was pressed, one the page captures, one whose press opens a list over it, and a right click that opens a menu', async () => {
    await h.client.input.click.mutate({ target: '#steady' });
    expect((await seen()).clicked).toEqual(['steady']);
    // the page took the pointer to the track on press: the release goes there by its own design
    await h.client.input.click.mutate({ target: '#knob' });
    expect((await seen()).log).toContain('pointerup:track');
    // the page opens its list over the element on the press: the release on the list is its own doing
    await h.client.input.click.mutate({ target: '#opener' });
    expect((await seen()).log).toContain('mouseup:size-list');
    // contextmenu fires on the press; the page's menu then takes the release
    await h.client.input.click.mutate({ target: '#menu-owner', button: 'right' });
    expect(await js('!!document.getElementById("context-menu")')).toBe(true);
  });
});
