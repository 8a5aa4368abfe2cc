import { existsSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import {
  Browser,
  type ChromeProcess,
  connectCri,
  discardEarlyLaunch,
  findChrome,
  launchChrome,
  launchEarly,
  parseFlags,
} from '../src/index.js';

let chrome: ChromeProcess | undefined;

afterEach(async () => {
  await chrome?.kill();
  chrome = undefined;
});

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

describe('finding and launching Chrome', () => {
  it('finds Chrome from CHROME_PATH or the usual paths, and explains when it cannot', () => {
    expect(findChrome()).toMatch(/chrom/i);
    expect(() => findChrome({ CHROME_PATH: '/nope/chrome' })).toThrow(/CHROME_PATH/);
  });

  it('splits extra flags on whitespace', () => {
    expect(parseFlags(' --a  --b=1 ')).toEqual(['--a', '--b=1']);
    expect(parseFlags(undefined)).toEqual([]);
  });

  it('launches with a temp profile, connects, and cleans up the whole process group', async () => {
    chrome = await launchChrome({ extraFlags: ['--proxy-server=http://127.0.0.1:9'] });
    expect(chrome.wsEndpoint).toMatch(/^ws:\/\/127\.0\.0\.1:\d+\/devtools\/browser\//);
    expect(existsSync(chrome.userDataDir)).toBe(true);
    const browser = await Browser.connect(await connectCri(chrome.wsEndpoint));
    expect((await browser.version()).product).toMatch(/Chrome/);
    expect(browser.attachedPages().length).toBeGreaterThan(0);
    await browser.close();
    await chrome.kill();
    expect(chrome.hasExited).toBe(true);
    expect(alive(chrome.pid)).toBe(false);
    expect(existsSync(chrome.userDataDir)).toBe(false);
  });

  it('attaches the existing tab once (no duplicate attach to detach again) and runs `alongside` with the attach', async () => {
    chrome = await launchChrome({ extraFlags: ['--proxy-server=http://127.0.0.1:9'] });
    const transport = await connectCri(chrome.wsEndpoint);
    const sent: string[] = [];
    const send = transport.send.bind(transport);
    transport.send = (method, params, sessionId) => {
      if (sessionId === undefined) sent.push(method);
      return send(method, params, sessionId);
    };
    let versionAt = -1;
    const browser = await Browser.connect(transport, {}, async (connected) => {
      await connected.version();
      versionAt = sent.indexOf('Browser.getVersion');
    });
    expect(browser.attachedPages()).toHaveLength(1);
    // Chromium's auto-attach already covers the tab that exists: an explicit attach was a duplicate
    expect(sent).not.toContain('Target.attachToTarget');
    expect(sent).not.toContain('Target.detachFromTarget');
    // sent beside the attach, before the tab's set-up was done (not queued behind it)
    expect(versionAt).toBeGreaterThanOrEqual(0);
    expect(versionAt).toBeLessThan(sent.indexOf('Target.getTargets'));
    await browser.close();
  });

  it('does not list a tab it closed again when Chromium reports it once more before destroying it', async () => {
    chrome = await launchChrome({ extraFlags: ['--proxy-server=http://127.0.0.1:9'] });
    const transport = await connectCri(chrome.wsEndpoint);
    const browser = await Browser.connect(transport, {});
    const page = await browser.newPage();
    const info = browser.tabs().find((tab) => tab.id === page.id)!;
    expect(info).toBeDefined();
    await browser.closePage(page.id);
    // what Chromium sends while a closing tab unloads, before Target.targetDestroyed
    (transport as unknown as { emit(event: object): void }).emit({
      method: 'Target.targetInfoChanged',
      params: {
        targetInfo: {
          targetId: page.id,
          type: 'page',
          title: info.title,
          url: info.url,
          attached: true,
          canAccessOpener: false,
        },
      },
    });
    expect(browser.tabs().map((tab) => tab.id)).not.toContain(page.id);
    await browser.close();
  });

  it('an early launch is adopted by a launch of the same browser, killed for another or when discarded', async () => {
    const flags = ['--proxy-server=http://127.0.0.1:9'];
    const early = launchEarly({ extraFlags: flags })!;
    expect(launchEarly({ extraFlags: flags })).toBeUndefined(); // one at a time
    chrome = await launchChrome({ extraFlags: flags });
    expect(chrome).toBe(await early);
    await chrome.kill();

    const unwanted = launchEarly({ extraFlags: flags })!;
    chrome = await launchChrome({ extraFlags: [...flags, '--mute-audio'] });
    const killed = await unwanted;
    expect(chrome.pid).not.toBe(killed.pid);
    await killed.exited;
    expect(existsSync(killed.userDataDir)).toBe(false);
    expect(alive(chrome.pid)).toBe(true);
    await chrome.kill();

    const discarded = launchEarly({ extraFlags: flags })!;
    discardEarlyLaunch();
    const gone = await discarded;
    await gone.exited;
    expect(alive(gone.pid)).toBe(false);
    // nothing left to adopt: the next launch is a new browser
    chrome = await launchChrome({ extraFlags: flags });
    expect(chrome.pid).not.toBe(gone.pid);
  });

  it('kill() is safe to call twice and after a crash', async () => {
    chrome = await launchChrome();
    process.kill(-chrome.pid, 'SIGKILL');
    await chrome.exited;
    await chrome.kill();
    await chrome.kill();
    expect(existsSync(chrome.userDataDir)).toBe(false);
  });
});

describe('pages over flat sessions', () => {
  it('navigates data URLs, evaluates, captures console, and sees tabs open and close', async () => {
    chrome = await launchChrome();
    const browser = await Browser.connect(await connectCri(chrome.wsEndpoint));
    try {
      const page = await browser.newPage();
      const result = await page.navigate('data:text/html,<title>T</title><p>hi</p>');
      expect(result.title).toBe('T');
      expect(await page.evaluate('document.querySelector("p").textContent')).toBe('hi');
      await page.evaluate('console.warn("careful", 42)');
      expect(page.capture.console.entries().map((e) => e.item)).toContainEqual(
        expect.objectContaining({ level: 'warn', text: 'careful 42' }),
      );
      await expect(page.evaluate('null.x')).rejects.toMatchObject({ code: 'eval_failed' });
      const count = browser.tabs().length;
      await browser.closePage(page.id);
      expect(browser.tabs().length).toBe(count - 1);
      expect(page.closed).toBe(true);
    } finally {
      await browser.close();
    }
  });
});
