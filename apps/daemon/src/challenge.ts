import type { Page } from '@argus/cdp';
import type { Challenge } from '@argus/protocol';
import { type ChallengeFinding, DETECT_CHALLENGE, pageExpression, pageResult } from '@argus/snapshot';
import type { z } from 'zod';

/** The detector's own time in the page, at most (it takes about a millisecond on an ordinary page). */
const DETECT_TIMEOUT_MS = 2_000;

export type ChallengeReport = NonNullable<z.output<typeof Challenge>>;

/** What a person is asked to do for each kind; Argus itself never solves or evades any of them. */
const ASK: Record<NonNullable<ChallengeFinding>['kind'], { reason: string; note: string }> = {
  login: { reason: 'Log in, then press Done', note: 'the page wants a sign-in' },
  captcha: {
    reason: 'Solve the CAPTCHA, then press Done',
    note: 'Argus does not solve CAPTCHAs',
  },
  bot_check: {
    reason: 'Get past the browser check, then press Done',
    note: 'Argus does not evade bot checks',
  },
  consent: { reason: 'Answer the consent dialog, then press Done', note: 'the page waits for a consent choice' },
};

/** The result's `challenge` for what the page function found: what was seen and how to hand off. */
export function challengeReport(finding: NonNullable<ChallengeFinding>): ChallengeReport {
  const ask = ASK[finding.kind];
  return {
    kind: finding.kind,
    hint: `${finding.signal}: ${ask.note}. Hand the tab to a person: \`argus handoff --reason "${ask.reason}" --wait\` (MCP: argus_handoff), then go on.`,
  };
}

/**
 * One evaluate in the new document's main world after a navigation (no second round trip when
 * nothing is found). A detection that fails (the page navigated again, a hostile page threw) says
 * nothing rather than failing the navigation it reports on.
 */
export async function detectChallenge(page: Page, status: number | null): Promise<ChallengeReport | undefined> {
  if (page.closed || !/^https?:/.test(page.url)) return undefined;
  const finding = await page
    // bounded: a page busy in a script loop delays its answer, never the navigation's result for long
    .evaluate(pageExpression(DETECT_CHALLENGE, 'undefined', [status]), { timeoutMs: DETECT_TIMEOUT_MS })
    .then((value) => pageResult(DETECT_CHALLENGE, value))
    .catch(() => null);
  return finding ? challengeReport(finding) : undefined;
}

/**
 * A navigation's result with the new document's title and, when the page shows one, `challenge`:
 * both read at once (one renderer round trip after the load; the navigation was asked not to read
 * the title itself, `readTitle: false`).
 */
export async function withChallenge<R extends { status: number | null; title: string }>(
  page: Page,
  result: R,
): Promise<R & { challenge?: ChallengeReport }> {
  const [title, challenge] = await Promise.all([page.readTitle(), detectChallenge(page, result.status)]);
  return challenge ? { ...result, title, challenge } : { ...result, title };
}

/** The HTTP status of the tab's latest main-frame document (an action's navigation reports none itself). */
export function latestDocumentStatus(page: Page): number | null {
  let last: number | null = null;
  for (const status of page.documentStatus.values()) last = status;
  return last;
}
