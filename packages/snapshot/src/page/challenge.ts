import { z } from 'zod';
import { pageFunction } from './page-function.js';

/** What stands between the agent and the page, as the page shows it; null when nothing does. */
export const ChallengeFinding = z
  .object({
    kind: z.enum(['login', 'captcha', 'bot_check', 'consent']),
    /** What was seen, in a few words (`reCAPTCHA widget`, `OneTrust consent dialog`): for the hint. */
    signal: z.string(),
  })
  .nullable();
export type ChallengeFinding = z.output<typeof ChallengeFinding>;

/**
 * Looks once at a freshly loaded document for what a person must get past: a CAPTCHA or bot-check
 * widget, a bot-check interstitial, a consent wall of a known CMP, a login wall. Cheap on purpose
 * (it runs after every navigation): a few selector queries; the costlier measures (text length,
 * boxes) only once a password field or a CMP container is already there. It judges visible things
 * only, so an invisible reCAPTCHA v3 badge, a hidden header login drop-down or a dismissed banner
 * is no challenge. `status` is the document's HTTP status: after a 401/403 any visible login form
 * counts, not only one that fills the page.
 */
export const DETECT_CHALLENGE = pageFunction(
  'detectChallenge',
  ChallengeFinding,
  function (this: unknown, status: number | null): ChallengeFinding {
    const doc = document;
    const viewW = Math.max(1, window.innerWidth);
    const viewH = Math.max(1, window.innerHeight);
    const shown = (el: Element, minW = 2, minH = 2): boolean => {
      const box = el.getBoundingClientRect();
      if (box.width < minW || box.height < minH) return false;
      const style = getComputedStyle(el);
      return style.visibility !== 'hidden' && style.display !== 'none' && Number(style.opacity) > 0.05;
    };
    const hostOf = (src: string): string => {
      try {
        return new URL(src, doc.baseURI).href;
      } catch {
        return '';
      }
    };

    // CAPTCHA widgets: the visible widget iframe or its container (v3 / invisible ones ask nobody)
    const captchas: Array<[RegExp, string]> = [
      [/^https:\/\/(www\.)?(google\.com|recaptcha\.net)\/recaptcha\/(api2|enterprise)\/(anchor|bframe)/, 'reCAPTCHA'],
      [/^https:\/\/([a-z0-9-]+\.)?hcaptcha\.com\/captcha\//, 'hCaptcha'],
      [/^https:\/\/challenges\.cloudflare\.com\//, 'Cloudflare Turnstile'],
      [/^https:\/\/([a-z0-9-]+\.)?(captcha-delivery\.com)\//, 'DataDome CAPTCHA'],
      [/^https:\/\/([a-z0-9-]+\.)?(arkoselabs\.com|funcaptcha\.com)\//, 'Arkose FunCaptcha'],
    ];
    for (const frame of Array.from(doc.querySelectorAll('iframe[src]'))) {
      const src = hostOf(frame.getAttribute('src') ?? '');
      if (!src || /[?&]size=invisible\b/.test(src)) continue;
      const match = captchas.find(([pattern]) => pattern.test(src));
      if (match && shown(frame, 30, 30)) {
        return { kind: match[1] === 'DataDome CAPTCHA' ? 'bot_check' : 'captcha', signal: `${match[1]} widget` };
      }
    }
    const containers: Array<[string, string]> = [
      ['.g-recaptcha:not([data-size="invisible"])', 'reCAPTCHA'],
      ['.h-captcha:not([data-size="invisible"])', 'hCaptcha'],
      ['.cf-turnstile', 'Cloudflare Turnstile'],
      ['#px-captcha', 'PerimeterX (HUMAN) challenge'],
    ];
    for (const [selector, name] of containers) {
      const el = doc.querySelector(selector);
      if (el && shown(el, 30, 30))
        return { kind: name.startsWith('PerimeterX') ? 'bot_check' : 'captcha', signal: `${name} widget` };
    }

    // bot-check interstitials: Cloudflare's challenge page and its wording
    const title = doc.title.trim();
    const cfMarkers = doc.querySelector(
      '#challenge-form, #challenge-running, #cf-challenge-running, #challenge-stage, #cf-please-wait, script[src*="/cdn-cgi/challenge-platform/"]',
    );
    // the body's text only when a marker or the title asks for it: textContent builds the whole
    // document's text (~1 ms on a news page), and this runs after every navigation
    const checking = () =>
      /checking (if the site connection is secure|your browser before accessing)|verify(ing)? you are (a )?human|enable javascript and cookies to continue/i.test(
        (doc.body?.textContent ?? '').slice(0, 4_000),
      );
    if (cfMarkers && (/^just a moment/i.test(title) || checking()))
      return { kind: 'bot_check', signal: 'Cloudflare "Checking your browser" interstitial' };
    if (/^(just a moment|attention required|access denied|are you a robot)/i.test(title) && checking())
      // the page's own words stay out of the hint: it is not marked as page content
      return { kind: 'bot_check', signal: 'bot-check interstitial ("checking your browser")' };

    // consent walls of the common CMP frameworks: shown, and blocking (large, or the page locked under it)
    const cmps: Array<[string, string]> = [
      ['#onetrust-banner-sdk, #onetrust-pc-sdk', 'OneTrust'],
      ['#CybotCookiebotDialog', 'Cookiebot'],
      ['.qc-cmp2-container, #qc-cmp2-ui', 'Quantcast Choice'],
      ['#truste-consent-track, .truste_box_overlay, #truste-consent-content', 'TrustArc'],
      ['#didomi-popup, .didomi-popup-container, #didomi-notice', 'Didomi'],
      ['#usercentrics-root, #usercentrics-cmp-ui', 'Usercentrics'],
      ['iframe[id^="sp_message_iframe"], div[id^="sp_message_container"]', 'Sourcepoint'],
      ['#cmpbox, #cmpwrapper', 'consentmanager'],
      ['.osano-cm-dialog, .osano-cm-window__dialog', 'Osano'],
      ['.cky-consent-container, .cky-modal', 'CookieYes'],
      ['#cmplz-cookiebanner-container .cmplz-cookiebanner', 'Complianz'],
      ['#iubenda-cs-banner', 'iubenda'],
      ['.fc-consent-root', 'Google Funding Choices'],
      ['#axeptio_overlay', 'Axeptio'],
      ['#BorlabsCookieBox', 'Borlabs Cookie'],
      ['.klaro .cookie-modal, .klaro .cookie-notice', 'Klaro'],
      ['#termly-code-snippet-support [role="dialog"]', 'Termly'],
    ];
    // whether the page under a dialog is locked (no scrolling): read once, when a shown CMP asks
    let locked: boolean | undefined;
    const isLocked = () =>
      (locked ??= [doc.documentElement, doc.body].some(
        (el) => el && /hidden|clip/.test(getComputedStyle(el).overflowY),
      ));
    for (const [selector, name] of cmps) {
      for (const el of Array.from(doc.querySelectorAll(selector))) {
        if (!shown(el, 40, 40)) continue;
        const box = el.getBoundingClientRect();
        const visibleW = Math.max(0, Math.min(box.right, viewW) - Math.max(box.left, 0));
        const visibleH = Math.max(0, Math.min(box.bottom, viewH) - Math.max(box.top, 0));
        const share = (visibleW * visibleH) / (viewW * viewH);
        if (share >= 0.3 || (share >= 0.05 && isLocked())) return { kind: 'consent', signal: `${name} consent dialog` };
      }
    }

    /**
     * Email-first sign-in (Google, Microsoft and many SSO pages): the first step asks only for the
     * account name, with a Next/Continue button; the password comes on the next page. Flagged when
     * the name field is the only field of its form, the button says next/continue/sign in, the page
     * says it is a sign-in, and the form is what the page is about (or the server said 401/403). A
     * newsletter box asks for an email too, but says subscribe/sign up and sits in a page of its own.
     */
    function detectIdentifierFirst(
      d: Document,
      visible: (el: Element, minW?: number, minH?: number) => boolean,
      httpStatus: number | null,
    ): ChallengeFinding {
      const ids = Array.from(
        d.querySelectorAll(
          'input[type="email" i], input[autocomplete~="username" i], input[autocomplete~="email" i], input[name*="identifier" i], input[id*="identifier" i], input[name*="login" i], input[name*="user" i], input[name*="email" i]',
        ),
      ).filter((el) => (el as HTMLInputElement).type !== 'hidden' && visible(el, 20, 8));
      const id = ids[0];
      if (!id || ids.length > 1) return null;
      // its form: a <form>, else the nearest ancestor holding a button (scripted pages have no form)
      const buttons = 'button, input[type="submit" i], input[type="button" i], [role="button"]';
      let box: Element | null = id.closest('form');
      if (!box) {
        box = id.parentElement;
        while (box && box !== d.body && !box.querySelector(buttons)) box = box.parentElement;
      }
      if (!box) return null;
      const others = Array.from(
        box.querySelectorAll(
          'input:not([type="hidden" i]):not([type="checkbox" i]):not([type="submit" i]):not([type="button" i]):not([type="image" i]), textarea, select',
        ),
      ).filter((el) => el !== id && visible(el, 2, 2));
      if (others.length) return null;
      const label = (el: Element) =>
        (el.getAttribute('aria-label') ?? (el as HTMLInputElement).value ?? el.textContent ?? '').trim() ||
        (el.textContent ?? '').trim();
      const next = /^(next|continue|sign ?in|log ?in|proceed|weiter|suivant|siguiente|avanti)\b/i;
      if (!Array.from(box.querySelectorAll(buttons)).some((el) => visible(el) && next.test(label(el)))) return null;
      const heading = Array.from(d.querySelectorAll('h1, h2'))
        .slice(0, 4)
        .map((el) => el.textContent ?? '')
        .join(' ');
      const words = `${d.title} ${heading} ${box instanceof HTMLElement ? box.innerText.slice(0, 600) : ''}`;
      if (!/\b(sign[ -]?in|log[ -]?in|login|signin|anmelden|connexion|iniciar sesi[o\u00f3]n|accedi)\b/i.test(words))
        return null;
      const signal = 'email-first sign-in form (the password comes on the next step)';
      if (httpStatus === 401 || httpStatus === 403)
        return { kind: 'login', signal: `${signal} with HTTP ${httpStatus}` };
      if (id.closest('[aria-modal="true"], dialog[open], [role="dialog"]')) return { kind: 'login', signal };
      const text = (d.body?.innerText ?? '').length;
      const boxText = box instanceof HTMLElement ? box.innerText.length : 0;
      const links = Array.from(d.querySelectorAll('a[href]')).filter((a) => !box?.contains(a)).length;
      return text - boxText < 1_500 && links < 40 ? { kind: 'login', signal } : null;
    }

    // login walls: a visible password field that the page is about (or any, after a 401/403)
    const passwords = Array.from(doc.querySelectorAll('input[type="password" i]')).filter((el) => shown(el, 20, 8));
    const first = passwords[0];
    const form = first?.closest('form, [role="dialog"], dialog, [aria-modal="true"]') ?? first?.parentElement;
    // a login asks for a name and a secret (maybe a code); a sign-up or profile form asks for more
    const fields = form
      ? Array.from(
          form.querySelectorAll(
            'input:not([type="password" i]):not([type="hidden" i]):not([type="checkbox" i]):not([type="submit" i]):not([type="button" i]):not([type="image" i]), textarea, select',
          ),
        ).filter((el) => shown(el, 2, 2)).length
      : 0;
    if (first && fields <= 2 && passwords.length <= 2) {
      if (status === 401 || status === 403) return { kind: 'login', signal: `login form with HTTP ${status}` };
      if (first.closest('[aria-modal="true"], dialog[open], [role="dialog"]'))
        return { kind: 'login', signal: 'login dialog over the page' };
      // the page is mostly the form: little text and few links outside it
      const text = (doc.body?.innerText ?? '').length;
      const formText = form instanceof HTMLElement ? form.innerText.length : 0;
      const links = Array.from(doc.querySelectorAll('a[href]')).filter((a) => !form?.contains(a)).length;
      if (text - formText < 1_500 && links < 40) return { kind: 'login', signal: 'login form fills the page' };
    }
    if (!first) return detectIdentifierFirst(doc, shown, status);
    return null;
  },
);
