import { mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { assertUrlAllowed, browserFileRefusal, urlRefusal } from './url-policy.js';

const project = mkdtempSync(join(tmpdir(), 'argus-urls-'));
afterAll(() => rmSync(project, { recursive: true, force: true }));
const files = { cwd: project, roots: [project], denied: [join(project, '.argus')] };
const off = { allowFileUrls: false, files };
const on = { allowFileUrls: true, files };

describe('URL policy', () => {
  it('allows http(s), about:blank and data:', () => {
    for (const url of ['http://localhost:1/', 'https://example.com/', 'about:blank', 'data:text/html,hi'])
      expect(urlRefusal(url, off)).toBeUndefined();
  });
  it('refuses file: unless the operator allows it, and then only inside the allowed area', () => {
    expect(urlRefusal('file:///etc/passwd', off)).toMatch(/file: URLs are off/);
    expect(urlRefusal(`file://${project}/page.html`, off)).toMatch(/off/);
    expect(urlRefusal(`file://${project}/page.html`, on)).toBeUndefined();
    expect(urlRefusal('file:///etc/passwd', on)).toMatch(/outside the allowed area/);
    expect(urlRefusal(`file://${project}/.argus/daemon.json`, on)).toMatch(/state dir/);
    expect(urlRefusal('file://otherhost/share/x', on)).toMatch(/another machine/);
    symlinkSync('/etc/passwd', join(project, 'innocent.html'));
    expect(urlRefusal(`file://${project}/innocent.html`, on)).toMatch(/outside/);
  });
  it('refuses view-source: of what it refuses, and other schemes', () => {
    expect(urlRefusal('view-source:file:///etc/passwd', on)).toMatch(/outside/);
    expect(urlRefusal('view-source:https://example.com/', off)).toBeUndefined();
    for (const url of [
      'javascript:alert(1)',
      'chrome://version',
      'filesystem:http://a.test/temporary/x',
      'blob:http://a.test/1',
      'about:version',
      'devtools://devtools/x',
    ]) {
      expect(urlRefusal(url, on)).toBeDefined();
    }
    expect(() => assertUrlAllowed('file:///etc/passwd', off)).toThrow(
      expect.objectContaining({ code: 'url_forbidden', message: expect.stringMatching(/load-html/) }),
    );
  });
  it('confines file: loads a page starts to the allowed area', () => {
    expect(browserFileRefusal('https://example.com/', files)).toBeUndefined();
    expect(browserFileRefusal(`file://${project}/a.html`, files)).toBeUndefined();
    expect(browserFileRefusal('file:///etc/hostname', files)).toMatch(/outside/);
    expect(browserFileRefusal(`file://${project}/.argus/daemon.json`, files)).toMatch(/state dir/);
  });
});
