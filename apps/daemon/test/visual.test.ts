import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { imageSize } from '@argus/cdp';
import { describe, expect, it } from 'vitest';
import { codeOf, useHarness } from './harness.js';

const h = useHarness();

/** Width and height in points of the first page's MediaBox. */
function mediaBox(pdf: Buffer): [number, number] {
  const match = /\/MediaBox\s*\[\s*([\d.]+)\s+([\d.]+)\s+([\d.]+)\s+([\d.]+)\s*\]/.exec(pdf.toString('latin1'));
  if (!match) throw new Error('no MediaBox in the PDF');
  return [Number(match[3]) - Number(match[1]), Number(match[4]) - Number(match[2])];
}

describe('screenshot modes', () => {
  it('clip, formats, quality, base64 and element by selector', async () => {
    await h.client.page.goto.mutate({ url: h.server.urlFor('/styles.html') });
    const clip = await h.client.page.screenshot.mutate({ clip: '10,20,200,100', path: 'shots/clip.png' });
    expect(clip).toMatchObject({ format: 'png', width: 200, height: 100, path: join(h.workspace, 'shots/clip.png') });
    expect(imageSize(readFileSync(clip.path!))).toEqual({ width: 200, height: 100 });

    const jpeg = await h.client.page.screenshot.mutate({
      clip: '0,0,300,150',
      format: 'jpeg',
      quality: 40,
      path: 'shots/clip.jpg',
    });
    const jpegBytes = readFileSync(jpeg.path!);
    expect(jpegBytes.subarray(0, 2)).toEqual(Buffer.from([0xff, 0xd8]));
    expect(jpeg).toMatchObject({ format: 'jpeg', width: 300, height: 150, bytes: jpegBytes.length });
    const better = await h.client.page.screenshot.mutate({
      clip: '0,0,300,150',
      format: 'jpeg',
      quality: 100,
      base64: true,
    });
    expect(better.bytes).toBeGreaterThan(jpeg.bytes);

    // format from the extension; base64 next to the file
    const webp = await h.client.page.screenshot.mutate({ path: 'shots/view.webp', base64: true });
    expect(webp.format).toBe('webp');
    expect(Buffer.from(webp.base64!, 'base64').equals(readFileSync(webp.path!))).toBe(true);
    expect(readFileSync(webp.path!).toString('ascii', 8, 12)).toBe('WEBP');
    expect(imageSize(readFileSync(webp.path!))).toEqual({ width: webp.width, height: webp.height });

    // base64 alone writes no file
    const before = existsSync(join(h.daemon.stateDir, 'captures'))
      ? readdirSync(join(h.daemon.stateDir, 'captures')).length
      : 0;
    const inline = await h.client.page.screenshot.mutate({ base64: true, ref: '#title' });
    expect(inline.path).toBeNull();
    expect(imageSize(Buffer.from(inline.base64!, 'base64'))).toEqual({ width: inline.width, height: inline.height });
    const after = existsSync(join(h.daemon.stateDir, 'captures'))
      ? readdirSync(join(h.daemon.stateDir, 'captures')).length
      : 0;
    expect(after).toBe(before);

    // default location: <stateDir>/captures
    const plain = await h.client.page.screenshot.mutate({});
    expect(plain.path!.startsWith(join(h.daemon.stateDir, 'captures'))).toBe(true);
    expect(plain.path!.endsWith('.png')).toBe(true);
  });

  it('annotate: draws the ref labels for the capture only', async () => {
    await h.client.page.goto.mutate({ url: h.server.urlFor('/buttons.html') });
    const snap = await h.client.snapshot.take.mutate({ interactive: true });
    expect(snap.refs).toBeGreaterThan(2);
    const plain = await h.client.page.screenshot.mutate({ base64: true });
    const annotated = await h.client.page.screenshot.mutate({ base64: true, annotate: true });
    expect(annotated.base64).not.toBe(plain.base64);
    expect(
      (await h.client.page.eval.mutate({ js: "document.getElementById('__argus_overlay__') === null" })).value,
    ).toBe(true);
    // the page looks as before once the overlay is gone
    expect((await h.client.page.screenshot.mutate({ base64: true })).base64).toBe(plain.base64);
  });

  it('refuses contradictory or bad options before capturing', async () => {
    await h.client.page.goto.mutate({ url: h.server.urlFor('/styles.html') });
    expect(await codeOf(h.client.page.screenshot.mutate({ clip: '0,0,10' }))).toBe('invalid_input');
    expect(await codeOf(h.client.page.screenshot.mutate({ clip: '0,0,0,10' }))).toBe('invalid_input');
    expect(await codeOf(h.client.page.screenshot.mutate({ clip: '0,0,10,10', full: true }))).toBe('invalid_input');
    expect(await codeOf(h.client.page.screenshot.mutate({ quality: 50 }))).toBe('invalid_input');
    expect(await codeOf(h.client.page.screenshot.mutate({ format: 'gif' as 'png' }))).toBe('invalid_input');
    expect(await codeOf(h.client.page.screenshot.mutate({ path: '/etc/shot.jpg', format: 'jpeg' }))).toBe(
      'path_forbidden',
    );
    // the name says what the file holds: no JPEG bytes in a .png, no image in a .gif
    const named = await h.client.page.screenshot.mutate({ path: 'shots/d.png', format: 'jpeg' }).catch((e: Error) => e);
    expect(named).toMatchObject({
      message: expect.stringContaining('names a png file, but the format asked is jpeg: end the name with .jpg'),
    });
    expect(await codeOf(h.client.page.screenshot.mutate({ path: 'shots/d.gif' }))).toBe('invalid_input');
  });
});

describe('pdf, responsive, archive', () => {
  it('pdf: streams a PDF; landscape swaps the page size; format and margins apply', async () => {
    await h.client.page.goto.mutate({ url: h.server.urlFor('/long.html') });
    const portrait = await h.client.visual.pdf.mutate({ path: 'out/portrait.pdf' });
    const bytes = readFileSync(portrait.path);
    expect(bytes.subarray(0, 5).toString('latin1')).toBe('%PDF-');
    expect(portrait).toMatchObject({ bytes: bytes.length, format: 'letter', landscape: false });
    expect(mediaBox(bytes)).toEqual([612, 792]);

    const landscape = await h.client.visual.pdf.mutate({
      path: 'out/landscape.pdf',
      landscape: true,
      format: 'a4',
      margins: '1cm 2cm',
      background: true,
    });
    const [width, height] = mediaBox(readFileSync(landscape.path));
    // A4 is 841.9 x 595.3 pt; Chrome rounds its page size to whole device pixels
    expect(Math.abs(width - 841.9)).toBeLessThan(1.5);
    expect(Math.abs(height - 595.3)).toBeLessThan(1.5);

    const legal = await h.client.visual.pdf.mutate({ path: 'out/legal.pdf', format: 'legal' });
    expect(mediaBox(readFileSync(legal.path))).toEqual([612, 1008]);

    const generated = await h.client.visual.pdf.mutate({});
    expect(generated.path.startsWith(join(h.daemon.stateDir, 'captures'))).toBe(true);

    expect(await codeOf(h.client.visual.pdf.mutate({ margins: '1 2 3 4 5' }))).toBe('invalid_input');
    expect(await codeOf(h.client.visual.pdf.mutate({ margins: 'wide' }))).toBe('invalid_input');
    expect(await codeOf(h.client.visual.pdf.mutate({ format: 'a3' as 'a4' }))).toBe('invalid_input');
    expect(await codeOf(h.client.visual.pdf.mutate({ path: '../../outside.pdf' }))).toBe('path_forbidden');
  });

  it('responsive: three viewports in one call, then the viewport is restored', async () => {
    await h.client.page.goto.mutate({ url: h.server.urlFor('/styles.html') });
    // read after the next frame: the renderer applies a viewport change on its next frame
    const size = async () =>
      (
        await h.client.page.eval.mutate({
          js: 'await new Promise((r) => requestAnimationFrame(r)); [innerWidth, innerHeight]',
        })
      ).value;
    const original = await size();
    const result = await h.client.visual.responsive.mutate({ prefix: 'shots/home' });
    expect(result.shots.map((shot) => [shot.viewport, shot.width, shot.height])).toEqual([
      ['375x812', 375, 812],
      ['768x1024', 768, 1024],
      ['1280x720', 1280, 720],
    ]);
    for (const shot of result.shots) {
      expect(shot.path).toBe(join(h.workspace, `shots/home-${shot.viewport}.png`));
      expect(imageSize(readFileSync(shot.path))).toEqual({ width: shot.width, height: shot.height });
    }
    expect(await size()).toEqual(original);

    // an override set before (as `argus viewport` does) is put back afterwards
    const page = await h.daemon.services.manager.page();
    await page.session.send('Emulation.setDeviceMetricsOverride', {
      width: 1000,
      height: 700,
      deviceScaleFactor: 1,
      mobile: false,
    });
    const full = await h.client.visual.responsive.mutate({ full: true });
    expect(full.shots[0]!.path.startsWith(join(h.daemon.stateDir, 'captures'))).toBe(true);
    expect(full.shots[0]!.height).toBeGreaterThanOrEqual(812);
    expect(await size()).toEqual([1000, 700]);
    await page.session.send('Emulation.clearDeviceMetricsOverride');
    expect(await size()).toEqual(original);

    // a device emulated with `emulate` is restored exactly afterwards, mobile flag and scale included
    await h.client.emulation.emulate.mutate({ device: 'iphone-15' });
    const device = async () =>
      (
        await h.client.page.eval.mutate({
          js: 'await new Promise((r) => requestAnimationFrame(r)); [innerWidth, innerHeight, screen.width, devicePixelRatio]',
        })
      ).value;
    const emulated = await device();
    // a mobile viewport without a viewport meta lays out at 980 CSS px; the screen is the device's
    expect((emulated as number[]).slice(2)).toEqual([393, 3]);
    await h.client.visual.responsive.mutate({});
    expect(await device()).toEqual(emulated);
    // after `emulate --reset` there is no override to put back
    await h.client.emulation.emulate.mutate({ reset: true });
    expect(await size()).toEqual(original);
    await h.client.visual.responsive.mutate({});
    expect(await size()).toEqual(original);

    expect(await codeOf(h.client.visual.responsive.mutate({ prefix: '/etc/argus' }))).toBe('path_forbidden');
    expect(await size()).toEqual(original);
  });

  it('archive: MHTML with the page and its resources', async () => {
    await h.client.page.goto.mutate({ url: h.server.urlFor('/meta.html') });
    await h.client.page.wait.mutate({ load: true });
    const archive = await h.client.visual.archive.mutate({ path: 'out/page.mhtml' });
    const text = readFileSync(archive.path, 'latin1');
    expect(archive.bytes).toBe(Buffer.byteLength(text, 'latin1'));
    const header = text.slice(0, text.indexOf('\r\n\r\n'));
    expect(header).toMatch(/^From: <Saved by Blink>/);
    expect(header).toMatch(/Snapshot-Content-Location: http:\/\/127\.0\.0\.1:\d+\/meta\.html/);
    expect(header).toMatch(/MIME-Version: 1\.0/);
    expect(header).toMatch(/Content-Type: multipart\/related;/);
    expect(text).toContain('Content-Location: ' + h.server.urlFor('/assets/pixel.png'));
    expect(await codeOf(h.client.visual.archive.mutate({ path: '/etc/page.mhtml' }))).toBe('path_forbidden');
  });
});
