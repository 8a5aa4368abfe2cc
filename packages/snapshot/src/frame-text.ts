import type { Page } from '@argus/cdp';
import { callWalker, evalObject, frameContext, type FrameContext } from './frame-eval.js';

/** Frames nested deeper than this are left out of snapshots and text reads. */
export const MAX_FRAME_NESTING = 6;

/**
 * The text of a frame's document, each visible iframe's text in its place (see withFrameText). Read
 * through the walker the world holds (the whole ~50 KB source went along with every read before).
 */
export async function frameText(page: Page, ctx: FrameContext, nesting: number): Promise<string> {
  const read = await callWalker<{ text: string; frames: number }>(
    ctx,
    'function (a) { return a.text(null); }',
    null,
    [],
  );
  return withFrameText(page, ctx, read, nesting);
}

/** Replaces each frame marker of a text read with `[frame "name"]` and that frame's own text. */
export async function withFrameText(
  page: Page,
  ctx: FrameContext,
  read: { text: string; frames: number },
  nesting: number,
): Promise<string> {
  if (!read.frames) return read.text;
  const inner = await Promise.all(
    Array.from({ length: read.frames }, async (_, index) => {
      if (nesting >= MAX_FRAME_NESTING) return '';
      const childId = await childFrameId(ctx, index, 'textFrameAt');
      const child = childId ? await frameContext(page, childId) : undefined;
      if (!child) return '';
      const body = await frameText(page, child, nesting + 1).catch(() => '');
      const frame = page.frames.get(childId ?? '');
      const where = frame?.url
        ? ` ${frame.url
            .replace(/^[a-z]+:\/\/(?:www\.)?/i, '')
            .split(/[?#]/)[0]!
            .slice(0, 60)}`
        : '';
      return body ? `[frame${where}]\n${body}\n[/frame]` : '';
    }),
  );
  // each marker is a line of its own: an empty frame takes its line away with it, and nothing else
  // is trimmed (a blank line or leading spaces of a <pre> are the page's own)
  return (
    read.text
      // eslint-disable-next-line no-control-regex -- the walker marks frames with NUL-delimited indexes
      .replace(/(^|\n)\u0000(\d+)\u0000(?=\n|$)/g, (_, lead: string, index: string) => {
        const body = inner[Number(index)];
        return body ? lead + body : '';
      })
      .replace(/^\n+|\n+$/g, '')
  );
}

/** The frame id of the walker's `list` entry `index` (an iframe element met by the last walk or text read). */
export async function childFrameId(
  ctx: FrameContext,
  index: number,
  list: 'frameAt' | 'textFrameAt' = 'frameAt',
): Promise<string | undefined> {
  try {
    return await frameIdOf(ctx, `globalThis.__argus.${list}(${index})`);
  } catch {
    return undefined;
  }
}

/** The frame id of the iframe element `expression` evaluates to in the frame's world (undefined: no element, or no frame). */
export async function frameIdOf(ctx: FrameContext, expression: string): Promise<string | undefined> {
  const object = await evalObject(ctx, expression);
  if (!object?.objectId) return undefined;
  const { node } = await ctx.session.send('DOM.describeNode', { objectId: object.objectId });
  return node.frameId;
}
