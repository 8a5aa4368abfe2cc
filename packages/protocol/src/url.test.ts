import { describe, expect, it } from 'vitest';
import { HttpUrl } from './common.js';
import { normaliseUrl } from './url.js';

const url = (input: string) => {
  const parsed = normaliseUrl(input);
  return parsed.ok ? parsed.url : `error: ${parsed.message}`;
};

describe('normaliseUrl: URLs as users type them', () => {
  it('gives loopback hosts http:// and other bare hosts https://', () => {
    expect(url('localhost:8123/x')).toBe('http://localhost:8123/x');
    expect(url('localhost')).toBe('http://localhost/');
    expect(url('127.0.0.1:8123')).toBe('http://127.0.0.1:8123/');
    expect(url('127.0.0.1')).toBe('http://127.0.0.1/');
    expect(url('[::1]:3000/a?b=1')).toBe('http://[::1]:3000/a?b=1');
    expect(url('app.localhost:5173')).toBe('http://app.localhost:5173/');
    expect(url('example.com')).toBe('https://example.com/');
    expect(url('example.com:8080/x')).toBe('https://example.com:8080/x');
    expect(url('  news.ycombinator.com/item?id=1 ')).toBe('https://news.ycombinator.com/item?id=1');
  });
  it('keeps explicit schemes, including ones the daemon will refuse', () => {
    expect(url('http://example.com')).toBe('http://example.com/');
    expect(url('https://localhost:1')).toBe('https://localhost:1/');
    expect(url('about:blank')).toBe('about:blank');
    expect(url('file:///etc/passwd')).toBe('file:///etc/passwd');
    expect(url('view-source:file:///etc/passwd')).toBe('view-source:file:///etc/passwd');
    expect(url('javascript:alert(1)')).toBe('javascript:alert(1)');
    expect(normaliseUrl('localhost:1').ok && normaliseUrl('localhost:1')).toMatchObject({ bare: true });
    expect(normaliseUrl('http://localhost:1')).toMatchObject({ bare: false });
  });
  it('refuses what is not a URL', () => {
    expect(url('')).toMatch(/^error: The URL is empty/);
    expect(url('http://')).toMatch(/^error/);
    expect(url('exa mple')).toMatch(/^error/);
    expect(HttpUrl.safeParse('localhost:8123').data).toBe('http://localhost:8123/');
  });
  it('refuses a bare number read as an IPv4 address (a port typed without its host), with what it likely meant', () => {
    // `goto 12345` navigated to https://0.0.48.57/ (the URL standard reads 12345 as an IPv4 number)
    expect(url('12345')).toMatch(/^error: "12345" is not a host: .*0\.0\.48\.57\. Did you mean localhost:12345\?/);
    expect(url('3000/app')).toMatch(/Did you mean localhost:3000\/app\?/);
    expect(url('127.1:8080/x')).toMatch(/^error: .*127\.0\.0\.1\. Did you mean http:\/\/127\.0\.0\.1:8080\/x\?/);
    expect(url('0x7f.1')).toMatch(/^error: .*127\.0\.0\.1/);
    expect(url('99999999999')).toMatch(/^error/);
    // full dotted quads, explicit schemes and names with digits are unchanged
    expect(url('10.0.0.1:8080')).toBe('https://10.0.0.1:8080/');
    expect(url('http://127.1')).toBe('http://127.0.0.1/');
    expect(url('1password.com')).toBe('https://1password.com/');
    expect(url('123.example.com')).toBe('https://123.example.com/');
  });
  it('refuses a scheme-like start that is no scheme, with the URL it likely meant', () => {
    // `ht!tp://bad` read as a host `ht!tp` and became https://ht!tp//bad
    expect(url('ht!tp://bad')).toMatch(
      /^error: "ht!tp:\/\/bad" does not start with a valid scheme.*Did you mean http:\/\/bad\?/,
    );
    expect(url('http//example.com')).toMatch(/Did you mean http:\/\/example\.com\?/);
    expect(url('https:/example.com')).toMatch(/Did you mean https:\/\/example\.com\?/);
    expect(url('my site://x')).toMatch(/^error: .*valid scheme/);
    // hosts with ports, paths holding `://`, opaque schemes and a host named like a scheme are unchanged
    expect(url('localhost:3000')).toBe('http://localhost:3000/');
    expect(url('127.0.0.1:8080/x')).toBe('http://127.0.0.1:8080/x');
    expect(url('example.com/?next=http://x')).toBe('https://example.com/?next=http://x');
    expect(url('data:text/plain,a://b')).toBe('data:text/plain,a://b');
    expect(url('http:8080')).toBe('https://http:8080/');
  });
});
