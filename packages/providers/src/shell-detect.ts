import type { parseHTML } from 'linkedom';

/** Why the HTTP tier's answer is not the page a person would see. */
export type FallbackReason = 'empty' | 'js-shell' | 'challenge';

type LinkedDocument = ReturnType<typeof parseHTML>['document'];

const CHALLENGE_TITLE =
  /just a moment|attention required|checking your browser|verify you are (a )?human|are you a robot|access denied|ddos-guard/i;
const CHALLENGE_MARKUP =
  /cf-chl-|challenge-platform|cf_chl_opt|g-recaptcha|h-captcha|hcaptcha\.com|px-captcha|_Incapsula_Resource/i;
const NOSCRIPT_NAG = /enable javascript|javascript is (disabled|required)|requires javascript|turn on javascript/i;
const MOUNT_POINTS = ['#root', '#app', '#__next', '#__nuxt', '#svelte', '[data-reactroot]', 'app-root'];
/** Below this much visible text a page with scripts is a shell rendered by those scripts. */
const SHELL_TEXT_CHARS = 200;

/**
 * A cheap look at the raw document (before Readability rewrites it): a bot challenge, or an app shell
 * whose content only scripts produce. Undefined when the page has its content in its HTML.
 */
export function shellReason(document: LinkedDocument, html: string): FallbackReason | undefined {
  const body = document.body;
  const visible = visibleTextLength(document);
  if (visible < 2000 && (CHALLENGE_TITLE.test(document.title ?? '') || CHALLENGE_MARKUP.test(html))) return 'challenge';
  if (!body) return 'empty';
  if (visible >= SHELL_TEXT_CHARS) return undefined;
  const scripts = document.querySelectorAll('script').length;
  const nag = [...document.querySelectorAll('noscript')].some((node) => NOSCRIPT_NAG.test(node.textContent ?? ''));
  const emptyMount = MOUNT_POINTS.some((selector) => {
    const mount = document.querySelector(selector);
    return mount !== null && (mount.textContent ?? '').trim().length < SHELL_TEXT_CHARS;
  });
  if (scripts > 0 && (nag || emptyMount || visible === 0)) return 'js-shell';
  return visible === 0 ? 'empty' : undefined;
}

function visibleTextLength(document: LinkedDocument): number {
  const body = document.body;
  if (!body) return 0;
  let length = (body.textContent ?? '').replace(/\s+/g, ' ').trim().length;
  for (const hidden of body.querySelectorAll('script, style, noscript, template'))
    length -= (hidden.textContent ?? '').replace(/\s+/g, ' ').trim().length;
  return Math.max(0, length);
}
