import type { Protocol } from 'devtools-protocol';
import { ArgusError } from '@argus/protocol';
import { runAbandonable } from './command-scope.js';
import type { Page } from './page.js';
import type { Session } from './session.js';

export type ImageFormat = 'png' | 'jpeg' | 'webp';

export interface ClipRect {
  x: number;
  y: number;
  width: number;
  height: number;
}

export interface CapturedImage {
  data: Buffer;
  /** The same bytes as CDP sent them, base64: a reply that carries the image needs no second encoding. */
  base64: string;
  format: ImageFormat;
  width: number;
  height: number;
}

/**
 * Page.captureScreenshot in any format. `clip` is in CSS pixels of the document (captured beyond
 * the viewport); `full` captures the whole scrollable page; `scale` (with a clip) downscales it.
 */
export async function captureImage(
  page: Page,
  options: { format?: ImageFormat; quality?: number; clip?: ClipRect; full?: boolean; scale?: number } = {},
): Promise<CapturedImage> {
  page.assertOpen();
  const format = options.format ?? 'png';
  let clip = options.clip;
  if (options.full && !clip) {
    const metrics = await page.session.send('Page.getLayoutMetrics');
    const size = metrics.cssContentSize;
    clip = { x: 0, y: 0, width: Math.ceil(size.width), height: Math.ceil(size.height) };
  }
  const params: Protocol.Page.CaptureScreenshotRequest = { format };
  if (options.quality !== undefined && format !== 'png') params.quality = options.quality;
  if (clip) {
    // scale < 1 shrinks the image Chrome encodes (a downscaled capture, never a resize afterwards)
    params.clip = { ...clip, scale: options.scale ?? 1 };
    params.captureBeyondViewport = true;
  }
  const data = await captureScreenshot(page.session, params);
  const buffer = Buffer.from(data, 'base64');
  const size = imageSize(buffer);
  return { data: buffer, base64: data, format, width: size?.width ?? 0, height: size?.height ?? 0 };
}

/**
 * Page.captureScreenshot (the image's base64), sent again when the main frame commits a new
 * document before it is answered. Chrome answers a capture with the next frame the page's
 * compositor draws; when a script's navigation (`location.href = …`) replaces the document while
 * the capture waits for it, that frame never comes and the capture is never answered (Chromium 156:
 * raw CDP, a capture sent 250-350 ms before such a commit hung in about half the tries; one sent
 * after the commit was answered every time). So a commit seen while it is pending abandons it (its
 * late answer, if any, is dropped) and captures the new document; each further commit does the
 * same, within the command's deadline.
 */
export async function captureScreenshot(
  session: Session,
  params: Protocol.Page.CaptureScreenshotRequest,
): Promise<string> {
  for (;;) {
    const abandon = new AbortController();
    let offCommit = () => {};
    const committed = new Promise<undefined>((resolve) => {
      offCommit = session.on('Page.frameNavigated', ({ frame }) => {
        if (!frame.parentId) resolve(undefined);
      });
    });
    const capture = runAbandonable(abandon.signal, () => session.send('Page.captureScreenshot', params));
    try {
      const answer = await Promise.race([capture, committed]);
      if (answer) return answer.data;
    } finally {
      offCommit();
    }
    abandon.abort();
    capture.catch(() => undefined);
  }
}

/** Pixel size from a PNG, JPEG or WebP header; undefined when the bytes are none of those. */
export function imageSize(buffer: Buffer): { width: number; height: number } | undefined {
  if (buffer.length >= 24 && buffer.readUInt32BE(0) === 0x89504e47) {
    return { width: buffer.readUInt32BE(16), height: buffer.readUInt32BE(20) };
  }
  if (buffer.length >= 4 && buffer[0] === 0xff && buffer[1] === 0xd8) return jpegSize(buffer);
  if (buffer.length >= 30 && buffer.toString('ascii', 0, 4) === 'RIFF' && buffer.toString('ascii', 8, 12) === 'WEBP')
    return webpSize(buffer);
  return undefined;
}

function jpegSize(buffer: Buffer): { width: number; height: number } | undefined {
  let offset = 2;
  while (offset + 9 < buffer.length) {
    if (buffer[offset] !== 0xff) return undefined;
    const marker = buffer[offset + 1]!;
    if (marker === 0xff) {
      offset++; // fill byte
      continue;
    }
    const length = buffer.readUInt16BE(offset + 2);
    // SOF0..SOF15 carry the frame size; C4 (DHT), C8 (JPG) and CC (DAC) share the range but do not
    if (marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc) {
      return { height: buffer.readUInt16BE(offset + 5), width: buffer.readUInt16BE(offset + 7) };
    }
    offset += 2 + length;
  }
  return undefined;
}

function webpSize(buffer: Buffer): { width: number; height: number } | undefined {
  const chunk = buffer.toString('ascii', 12, 16);
  if (chunk === 'VP8X') return { width: 1 + buffer.readUIntLE(24, 3), height: 1 + buffer.readUIntLE(27, 3) };
  if (chunk === 'VP8L') {
    const b0 = buffer[21]!;
    const b1 = buffer[22]!;
    const b2 = buffer[23]!;
    const b3 = buffer[24]!;
    return { width: 1 + (((b1 & 0x3f) << 8) | b0), height: 1 + (((b3 & 0x0f) << 10) | (b2 << 2) | ((b1 & 0xc0) >> 6)) };
  }
  if (chunk === 'VP8 ') return { width: buffer.readUInt16LE(26) & 0x3fff, height: buffer.readUInt16LE(28) & 0x3fff };
  return undefined;
}

/**
 * Drains a CDP IO stream (e.g. Page.printToPDF with transferMode ReturnAsStream) chunk by chunk into
 * `sink`, so a large result is never held whole in memory. Always closes the stream.
 */
export async function drainStream(
  session: Session,
  handle: string,
  sink: (chunk: Buffer) => Promise<void> | void,
  options: { chunkBytes?: number; maxBytes?: number } = {},
): Promise<number> {
  const chunkBytes = options.chunkBytes ?? 1 << 20;
  const maxBytes = options.maxBytes ?? Number.POSITIVE_INFINITY;
  let total = 0;
  try {
    for (;;) {
      const { data, base64Encoded, eof } = await session.send('IO.read', { handle, size: chunkBytes });
      if (data) {
        const chunk = Buffer.from(data, base64Encoded ? 'base64' : 'utf8');
        total += chunk.length;
        if (total > maxBytes) {
          throw new ArgusError('payload_too_large', `The stream is larger than ${maxBytes} bytes; it was cut off.`, {
            details: { maxBytes },
          });
        }
        await sink(chunk);
      }
      if (eof) return total;
    }
  } finally {
    await session.send('IO.close', { handle }).catch(() => undefined);
  }
}

/**
 * The area a capture covers, in CSS px of the document (the clip, the whole page with `full`, else
 * the visible viewport), and the device pixel ratio: sizes an image before capturing it.
 */
export async function captureArea(
  page: Page,
  options: { clip?: ClipRect | undefined; full?: boolean | undefined } = {},
): Promise<{ area: ClipRect; dpr: number }> {
  page.assertOpen();
  const metrics = await page.session.send('Page.getLayoutMetrics');
  const css = metrics.cssVisualViewport;
  // the deprecated visualViewport is in device pixels: its ratio to the CSS one is the pixel ratio
  const dpr = css.clientWidth > 0 ? metrics.visualViewport.clientWidth / css.clientWidth || 1 : 1;
  if (options.clip) return { area: options.clip, dpr };
  if (options.full) {
    const size = metrics.cssContentSize;
    return { area: { x: 0, y: 0, width: Math.ceil(size.width), height: Math.ceil(size.height) }, dpr };
  }
  return { area: { x: css.pageX, y: css.pageY, width: css.clientWidth, height: css.clientHeight }, dpr };
}
