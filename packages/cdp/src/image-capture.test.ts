import { describe, expect, it } from 'vitest';
import { ArgusError } from '@argus/protocol';
import { captureScreenshot, drainStream, imageSize } from './image-capture.js';
import { fakeSession } from './fake-session.js';
import type { Page } from './page.js';
import type { Session } from './session.js';

/** A fake session serving `data` through IO.read in chunks of the requested size. */
function streamSession(data: Buffer, base64 = true) {
  let offset = 0;
  const calls: string[] = [];
  const session = {
    send: async (method: string, params: { handle: string; size?: number }) => {
      calls.push(method);
      if (method === 'IO.close') return {};
      const chunk = data.subarray(offset, offset + (params.size ?? data.length));
      offset += chunk.length;
      return { data: chunk.toString(base64 ? 'base64' : 'utf8'), base64Encoded: base64, eof: offset >= data.length };
    },
  } as unknown as Session;
  return { session, calls };
}

describe('imageSize', () => {
  it('reads PNG, JPEG (SOF after other segments) and the three WebP headers', () => {
    const png = Buffer.alloc(24);
    png.writeUInt32BE(0x89504e47, 0);
    png.writeUInt32BE(640, 16);
    png.writeUInt32BE(480, 20);
    expect(imageSize(png)).toEqual({ width: 640, height: 480 });

    const jpeg = Buffer.from([
      0xff, 0xd8, 0xff, 0xe0, 0x00, 0x04, 0x00, 0x00, 0xff, 0xc4, 0x00, 0x02, 0xff, 0xc0, 0x00, 0x11, 0x08, 0x01, 0x2c,
      0x02, 0x58, 0x03, 0, 0, 0, 0,
    ]);
    expect(imageSize(jpeg)).toEqual({ width: 600, height: 300 });

    const riff = (chunk: string, body: number[]) => {
      const buffer = Buffer.alloc(30);
      buffer.write('RIFF', 0, 'ascii');
      buffer.write('WEBP', 8, 'ascii');
      buffer.write(chunk, 12, 'ascii');
      Buffer.from(body).copy(buffer, 16);
      return buffer;
    };
    // VP8X: 24-bit (width-1) at 24, (height-1) at 27
    const vp8x = riff('VP8X', []);
    vp8x.writeUIntLE(1279, 24, 3);
    vp8x.writeUIntLE(719, 27, 3);
    expect(imageSize(vp8x)).toEqual({ width: 1280, height: 720 });
    // VP8L: 14-bit (width-1) and (height-1) packed from byte 21
    const vp8l = riff('VP8L', []);
    const bits = (99 & 0x3fff) | ((49 & 0x3fff) << 14);
    vp8l.writeUInt32LE(bits, 21);
    expect(imageSize(vp8l)).toEqual({ width: 100, height: 50 });
    // VP8 (lossy): 14-bit width at 26, height at 28
    const vp8 = riff('VP8 ', []);
    vp8.writeUInt16LE(375, 26);
    vp8.writeUInt16LE(812, 28);
    expect(imageSize(vp8)).toEqual({ width: 375, height: 812 });

    expect(imageSize(Buffer.from('GIF89a'))).toBeUndefined();
  });
});

describe('drainStream', () => {
  it('hands the stream over chunk by chunk and closes it', async () => {
    const data = Buffer.from('%PDF-1.4 '.repeat(1000));
    const { session, calls } = streamSession(data);
    const chunks: Buffer[] = [];
    const total = await drainStream(session, 'h1', (chunk) => void chunks.push(chunk), { chunkBytes: 1000 });
    expect(total).toBe(data.length);
    expect(chunks.length).toBe(Math.ceil(data.length / 1000));
    expect(Math.max(...chunks.map((chunk) => chunk.length))).toBeLessThanOrEqual(1000);
    expect(Buffer.concat(chunks).equals(data)).toBe(true);
    expect(calls.at(-1)).toBe('IO.close');
  });

  it('stops at maxBytes with payload_too_large and still closes the stream', async () => {
    const { session, calls } = streamSession(Buffer.alloc(5000, 1), false);
    const error = await drainStream(session, 'h2', () => undefined, { chunkBytes: 1000, maxBytes: 2500 }).catch(
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(ArgusError);
    expect((error as ArgusError).code).toBe('payload_too_large');
    expect(calls.filter((call) => call === 'IO.read')).toHaveLength(3);
    expect(calls.at(-1)).toBe('IO.close');
  });
});

/**
 * A tab shown behind another of its window: `hidden` until Page.bringToFront, and its capture is
 * answered only once it is in front (what Chromium 156 did to the third capture of a row and on).
 */
function backgroundTab(options: { answersWhileHidden?: boolean } = {}) {
  let hidden = true;
  const sent: string[] = [];
  const drawn: Array<() => void> = [];
  const { session } = fakeSession({
    send: (method: string) => {
      sent.push(method);
      if (method === 'Page.bringToFront') {
        hidden = false;
        for (const draw of drawn.splice(0)) draw();
        return Promise.resolve({});
      }
      if (method !== 'Page.captureScreenshot') return Promise.reject(new Error(`unexpected ${method}`));
      return new Promise((resolve) => {
        const draw = () => resolve({ data: 'SHOT' });
        if (!hidden || options.answersWhileHidden) setTimeout(draw, 10);
        else drawn.push(draw);
      });
    },
  });
  const page = { id: 'ABCDEF0123456789', session, isHidden: () => Promise.resolve(hidden) } as unknown as Page;
  return { page, sent, isHidden: () => hidden };
}

describe('captureScreenshot of a background tab', () => {
  it('brings the tab to the front when its capture waits on it, and returns that capture', async () => {
    const tab = backgroundTab();
    expect(await captureScreenshot(tab.page, { format: 'png' }, 'bringToFront')).toBe('SHOT');
    expect(tab.sent).toEqual(['Page.captureScreenshot', 'Page.bringToFront']);
    expect(tab.isHidden()).toBe(false);
  });

  it("refuses it, saying how to bring it forward, when the browser is someone else's", async () => {
    const tab = backgroundTab();
    const error = await captureScreenshot(tab.page, { format: 'png' }, 'refuse').catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ArgusError);
    expect((error as ArgusError).code).toBe('tab_hidden');
    expect((error as ArgusError).message).toContain('`argus tab ABCDEF01`');
    expect(tab.sent).toEqual(['Page.captureScreenshot']);
    expect(tab.isHidden()).toBe(true);
  });

  it('leaves a hidden tab whose capture is answered where it is', async () => {
    const tab = backgroundTab({ answersWhileHidden: true });
    expect(await captureScreenshot(tab.page, { format: 'png' }, 'bringToFront')).toBe('SHOT');
    expect(tab.sent).toEqual(['Page.captureScreenshot']);
  });
});
