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
 * What a capture does when its tab turns out to be hidden (a background tab of its window, or a
 * minimized window), for which Chrome draws no frames, so `Page.captureScreenshot` would wait for one
 * until the command's deadline: `bringToFront` shows it (a browser nobody looks at: Argus's own
 * headless one), `refuse` fails at once with the way to bring it forward (a browser a person may be
 * looking at: switching their tab is theirs or the agent's explicit call, never a capture's side effect).
 */
export type WhenHidden = 'bringToFront' | 'refuse';

export interface ImageCaptureOptions {
  format?: ImageFormat;
  quality?: number;
  clip?: ClipRect;
  full?: boolean;
  scale?: number;
  /** Default `refuse`. */
  whenHidden?: WhenHidden;
}

/**
 * Page.captureScreenshot in any format. `clip` is in CSS pixels of the document (captured beyond
 * the viewport); `full` captures the whole scrollable page; `scale` (with a clip) downscales it.
 */
export async function captureImage(page: Page, options: ImageCaptureOptions = {}): Promise<CapturedImage> {
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
  const data = await captureScreenshot(page, params, options.whenHidden ?? 'refuse');
  const buffer = Buffer.from(data, 'base64');
  const size = imageSize(buffer);
  return { data: buffer, base64: data, format, width: size?.width ?? 0, height: size?.height ?? 0 };
}

/**
 * A capture still unanswered after this long asks whether its tab is hidden (a visible tab's is
 * answered well within it), and again every HIDDEN_RECHECK_MS while it waits: the tab can
 * be pushed to the background while a slow capture waits.
 */
const HIDDEN_CHECK_MS = 250;
const HIDDEN_RECHECK_MS = 2_000;
/** Why a capture's round of looking for a hidden tab ends: it was answered or given up. */
const ROUND_OVER = 'capture round over';

/**
 * Page.captureScreenshot (the image's base64), sent again when the main frame commits a new
 * document before it is answered. Chrome answers a capture with the next frame the page's
 * compositor draws; when a script's navigation (`location.href = …`) replaces the document while
 * the capture waits for it, that frame never comes and the capture is never answered (Chromium 156:
 * raw CDP, a capture sent 250-350 ms before such a commit hung in about half the tries; one sent
 * after the commit was answered every time). So a commit seen while it is pending abandons it (its
 * late answer, if any, is dropped) and captures the new document; each further commit does the
 * same, within the command's deadline.
 *
 * Nor does a hidden tab draw frames: another client's `Target.createTarget` in the tab's window (or
 * the person opening a tab there) makes it a background tab, and its captures were answered for a
 * while and then not at all (Chromium 156 headless: the third of a row of captures and every one
 * after hung). Only a capture still pending after HIDDEN_CHECK_MS reads `document.visibilityState`
 * (so a visible tab's capture costs nothing more); a hidden tab is brought to the front, after which
 * the same pending capture is answered (in ~40 ms), or the capture is refused (`whenHidden`).
 */
export async function captureScreenshot(
  page: Page,
  params: Protocol.Page.CaptureScreenshotRequest,
  whenHidden: WhenHidden = 'refuse',
): Promise<string> {
  const session = page.session;
  let broughtForward = false;
  for (;;) {
    const abandon = new AbortController();
    const round = new AbortController();
    let offCommit = () => {};
    const committed = new Promise<'committed'>((resolve) => {
      offCommit = session.on('Page.frameNavigated', ({ frame }) => {
        if (!frame.parentId) resolve('committed');
      });
    });
    const capture = runAbandonable(abandon.signal, () => session.send('Page.captureScreenshot', params));
    try {
      let answer = await Promise.race([capture, committed, hiddenWhileWaiting(page, round.signal)]);
      while (answer === 'hidden') {
        if (whenHidden === 'refuse' || broughtForward) throw hiddenTabError(page, broughtForward);
        broughtForward = true;
        await session.send('Page.bringToFront');
        answer = await Promise.race([capture, committed, hiddenWhileWaiting(page, round.signal)]);
      }
      if (answer !== 'committed') return answer.data;
    } catch (error) {
      abandon.abort();
      capture.catch(() => undefined);
      throw error;
    } finally {
      offCommit();
      // with a reason of its own: abort() without one builds a DOMException (~0.1 ms, on every capture)
      round.abort(ROUND_OVER);
    }
    abandon.abort();
    capture.catch(() => undefined);
  }
}

/**
 * Settles with 'hidden' once the tab is found hidden (looked at after HIDDEN_CHECK_MS, then every
 * HIDDEN_RECHECK_MS) and never otherwise; `stop` ends the looking.
 */
function hiddenWhileWaiting(page: Page, stop: AbortSignal): Promise<'hidden'> {
  return new Promise((resolve) => {
    let timer: NodeJS.Timeout | undefined;
    const look = (): void => {
      timer = undefined;
      void page.isHidden().then(
        (hidden) => {
          if (stop.aborted) return;
          if (hidden) resolve('hidden');
          else timer = setTimeout(look, HIDDEN_RECHECK_MS);
        },
        // a page between documents answers nothing; the commit ends this round anyway
        () => {
          if (!stop.aborted) timer = setTimeout(look, HIDDEN_RECHECK_MS);
        },
      );
    };
    timer = setTimeout(look, HIDDEN_CHECK_MS);
    stop.addEventListener('abort', () => clearTimeout(timer), { once: true });
  });
}

function hiddenTabError(page: Page, broughtForward: boolean): ArgusError {
  const tab = page.id.slice(0, 8);
  const details = { tab: page.id };
  if (broughtForward) {
    return new ArgusError(
      'tab_hidden',
      `Tab ${tab} is still hidden after it was brought to the front (its window may be minimized), and Chrome draws no frames for a hidden tab, so it cannot be captured. Show its window, then take the screenshot again.`,
      { details },
    );
  }
  return new ArgusError(
    'tab_hidden',
    `Tab ${tab} is a background tab of its window (another tab is in front of it), and Chrome draws no frames for a hidden tab, so it cannot be captured. Bring it to the front with \`argus tab ${tab}\` (this switches the tab shown in that window), then take the screenshot again.`,
    { details },
  );
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
