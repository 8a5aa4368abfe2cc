import { z } from 'zod';
import { pageFunction } from './page-function.js';

/**
 * `dom.cleanup`: clutter removal in the main world of the main frame; returns counts per kind.
 * Heuristics: well-known ad and consent-manager selectors, consent-worded fixed/dialog boxes, and any
 * fixed/sticky element that is not the page's main content.
 */
export const CLEANUP = pageFunction(
  'cleanup',
  z.object({ ads: z.number(), cookies: z.number(), sticky: z.number() }),
  function (this: unknown, kinds: { ads: boolean; cookies: boolean; sticky: boolean }) {
    const counts = { ads: 0, cookies: 0, sticky: 0 };
    const hide = (el: Element) => {
      (el as HTMLElement).style.setProperty('display', 'none', 'important');
      el.setAttribute('data-argus-cleanup', '');
    };
    const gone = (el: Element) => el.hasAttribute('data-argus-cleanup') || !!el.closest('[data-argus-cleanup]');
    if (kinds.ads) {
      const selectors = [
        'ins.adsbygoogle',
        '[id^="google_ads"]',
        '[id^="div-gpt-ad"]',
        '[data-ad]',
        '[data-ad-slot]',
        '[data-ad-unit]',
        '[aria-label="Advertisement" i]',
        '.ad',
        '.ads',
        '.advert',
        '.advertisement',
        '.ad-slot',
        '.ad-banner',
        '.ad-container',
        '.sponsored',
        '[class*="ad-slot"]',
        '[id^="ad-"]',
        '[id^="ad_"]',
        'iframe[src*="doubleclick"]',
        'iframe[src*="googlesyndication"]',
        'iframe[src*="adservice"]',
        'iframe[src*="/ads/"]',
        'iframe[id*="google_ads"]',
        'iframe[name*="ad" i][src*="ad"]',
      ];
      for (const el of Array.from(document.querySelectorAll(selectors.join(',')))) {
        if (!gone(el) && el !== document.body) {
          hide(el);
          counts.ads++;
        }
      }
    }
    if (kinds.cookies) {
      const selectors = [
        '#onetrust-consent-sdk',
        '#onetrust-banner-sdk',
        '#CybotCookiebotDialog',
        '#cookie-banner',
        '#cookie-consent',
        '#cookieConsent',
        '#cookie-notice',
        '#gdpr-banner',
        '#consent-banner',
        '.cc-window',
        '.cookie-banner',
        '.cookie-consent',
        '.cookie-notice',
        '.cookies-banner',
        '.consent-banner',
        '.gdpr-banner',
        '[id*="cookie" i][role="dialog"]',
        '[class*="cookie" i][role="dialog"]',
        '[aria-label*="cookie" i]',
        '[aria-label*="consent" i]',
        '.fc-consent-root',
        '#didomi-host',
        '.qc-cmp2-container',
      ];
      const found = new Set(Array.from(document.querySelectorAll(selectors.join(','))));
      for (const el of Array.from(document.querySelectorAll('div, section, aside, dialog, form'))) {
        const style = getComputedStyle(el);
        if (
          style.position !== 'fixed' &&
          style.position !== 'sticky' &&
          el.getAttribute('role') !== 'dialog' &&
          el.tagName !== 'DIALOG'
        )
          continue;
        const text = ((el as HTMLElement).innerText || '').slice(0, 2000);
        if (/\b(cookies?|consent|gdpr|privacy preferences)\b/i.test(text) && text.length < 2000) found.add(el);
      }
      for (const el of found) {
        if (!gone(el) && el !== document.body && el !== document.documentElement) {
          hide(el);
          counts.cookies++;
        }
      }
      for (const root of [document.documentElement, document.body]) {
        if (root && getComputedStyle(root).overflow === 'hidden')
          root.style.setProperty('overflow', 'auto', 'important');
      }
    }
    if (kinds.sticky) {
      for (const el of Array.from(document.querySelectorAll('body *'))) {
        if (gone(el)) continue;
        const position = getComputedStyle(el).position;
        if (position === 'fixed') {
          hide(el);
          counts.sticky++;
        } else if (position === 'sticky') {
          (el as HTMLElement).style.setProperty('position', 'static', 'important');
          counts.sticky++;
        }
      }
    }
    return counts;
  },
);
