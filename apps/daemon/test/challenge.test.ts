import { type FixtureServer, realPages, startFixtureServer } from '@argus/test-kit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { challengePages } from './challenge-pages.js';
import { useHarness } from './harness.js';

// Issue 20, challenge detection: after a navigation the result says when the new page wants a
// person (login wall, CAPTCHA, bot check, consent wall), with a hint to hand off; look-alikes and
// the vendored real pages are not flagged.

const h = useHarness();
let pages: FixtureServer;
beforeAll(async () => {
  pages = await startFixtureServer({ pages: challengePages });
});
afterAll(async () => {
  await pages?.close();
});

const goto = (path: string) => h.client.page.goto.mutate({ url: pages.urlFor(path) });

describe('challenge detection after goto', () => {
  it.each([
    ['/login-wall', 'login', /login form fills the page/],
    ['/login-modal', 'login', /login dialog/],
    ['/forum-401', 'login', /HTTP 401/],
    ['/login-email-first', 'login', /email-first sign-in form/],
    ['/login-email-first-form', 'login', /email-first sign-in form/],
    ['/recaptcha', 'captcha', /reCAPTCHA widget.*does not solve CAPTCHAs/],
    ['/hcaptcha', 'captcha', /hCaptcha/],
    ['/turnstile', 'captcha', /Turnstile/],
    ['/cf-interstitial', 'bot_check', /Cloudflare.*does not evade bot checks/],
    ['/consent-wall', 'consent', /OneTrust consent/],
    ['/consent-locked', 'consent', /Didomi consent/],
    ['/attention-required', 'bot_check', /bot-check interstitial/],
  ])('%s is a %s challenge with a hint to hand off', async (path, kind, signal) => {
    const result = await goto(path);
    expect(result.challenge?.kind).toBe(kind);
    expect(result.challenge?.hint).toMatch(signal);
    expect(result.challenge?.hint).toContain('argus handoff --reason');
  });

  it.each([
    '/forum',
    '/header-login-hidden',
    '/recaptcha-v3',
    '/cookie-bar',
    '/consent-small',
    '/signup',
    '/goes-to-login',
    '/newsletter',
    '/newsletter-landing',
  ])('%s is an ordinary page: no challenge', async (path) => {
    const result = await goto(path);
    expect(result.status).toBe(200);
    expect(result).not.toHaveProperty('challenge');
  });

  it('an error page whose title alone reads like a bot check is no challenge', async () => {
    const result = await goto('/access-denied');
    expect(result.status).toBe(403);
    expect(result).not.toHaveProperty('challenge');
  });

  it('reports the challenge of the page a click navigated to, and of back/reload', async () => {
    await goto('/goes-to-login');
    const clicked = await h.client.input.click.mutate({ target: '#go' });
    expect(clicked.navigated).toBe(true);
    expect(clicked.challenge?.kind).toBe('login');
    expect((await h.client.page.reload.mutate({})).challenge?.kind).toBe('login');
    expect((await h.client.page.back.mutate({})).challenge).toBeUndefined();
    expect((await h.client.input.click.mutate({ target: '#go' })).challenge?.kind).toBe('login');
    // a click that does not navigate does not look again, though the page is still the wall
    const stay = await h.client.input.click.mutate({ target: 'input[type=email]' });
    expect(stay.navigated).toBe(false);
    expect(stay.challenge).toBeUndefined();
  });
});

describe('challenge detection on the vendored real pages', () => {
  // each real page was saved from a news site, blog or reference page: none of them is a wall
  it.each(realPages().map((page) => [page.name, page.path] as const))(
    '%s is not flagged',
    async (_name, path) => {
      const result = await h.client.page.goto.mutate({ url: h.server.urlFor(path), timeoutMs: 60_000 });
      expect(result.challenge).toBeUndefined();
    },
    90_000,
  );
});
