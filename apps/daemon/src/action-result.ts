import type { ActionEffects, Page } from '@argus/cdp';
import { type ElementHandle, INVALID_PROBE, type SnapshotEngine, stableLocator } from '@argus/snapshot';
import type { BrowserManager } from './browser-manager.js';
import { type ChallengeReport, detectChallenge, latestDocumentStatus } from './challenge.js';

/** What an action needs of the tab besides its page: its engine, and the frame chosen with `argus frame`. */
export type ActionTab = Pick<BrowserManager, 'engine' | 'frameChoices'>;

export interface ActionReportOptions {
  /** the element acted on (ref, locator or selector): its stable locator goes into the result */
  target?: string | undefined;
  /**
   * The action finds `target` itself and tells `run`'s `onElement` of it (before its input): the
   * locator is read from that element, in the action's own round trips. Otherwise the target is
   * found once more for it before the action.
   */
  targetSeen?: boolean;
  /** also return the `-i` snapshot diff the action caused */
  diff?: boolean | undefined;
}

/** What every action result adds to its effects (issue 12 §8: fewer round trips for agents). */
export interface ActionReport {
  /** a locator that replays the action after the page is reloaded (`role=button[name="Sign in"]`) */
  locator?: string;
  /**
   * `+`/`-`/`~` lines of the interactive snapshot, before the action against after it: its controls,
   * what its status, alert and live regions say (`+ status: Saved`, each cut to about 100 characters),
   * and at most 3 short texts the action made appear that -i does not print (`+ text: Saved!`)
   */
  diff?: string;
  /** what the page the action navigated to asks of a person (login, CAPTCHA, bot check, consent) */
  challenge?: ChallengeReport;
  /** fields whose validation kept a form from being submitted, with the browser's message */
  invalid?: Array<{ element: string; message: string }>;
  /** the `argus frame …` choice the action's navigation of the top document ended (FrameChoices.end) */
  frameCleared?: string;
}

/**
 * Runs an action through `page.act` and reports, besides its effects, the target's stable locator
 * (read before the action's input: a Delete button may be gone after it) and, when asked, the
 * snapshot diff it caused. The diff takes an interactive snapshot before and one after (the latter
 * also becomes the baseline of the next `snapshot -i --diff`); after a navigation the new page's
 * snapshot is returned whole, since a diff against another document says nothing useful. An action
 * whose navigation replaced the top document (a `target=_top` link in the chosen frame, Enter in a
 * form) ended the frame choice with it, said in its reply (`frameCleared`) as a goto's is: the agent
 * made the navigation, so its reply is where the news goes, not the next command's `ref_stale`.
 */
export async function actAndReport<T>(
  tab: ActionTab,
  page: Page,
  options: ActionReportOptions,
  run: (onElement: (handle: ElementHandle) => void) => Promise<T>,
): Promise<{ value: T; effects: ActionEffects & ActionReport }> {
  const engine = tab.engine(page);
  // the snapshot first: a walk releases the remote objects of earlier resolves
  // `appeared`: both snapshots keep the page's text, so the diff also says what short text the action
  // made appear (a bare toast) that -i does not print
  if (options.diff) await engine.snapshot({ interactive: true, appeared: true });
  let located: Promise<string | undefined> | undefined;
  if (options.target !== undefined && !options.targetSeen) {
    located = locatorOf(engine, options.target);
    await located;
  }
  // read while the action checks the element: sent before its input, answered in order with its checks
  const onElement = (handle: ElementHandle) => {
    if (options.target !== undefined && options.targetSeen) located ??= locatorOfElement(engine, handle);
  };
  const epoch = page.epoch;
  const { value, effects, probed } = await page.act(() => run(onElement), { probe: INVALID_PROBE });
  const locator = await located;
  // a navigation within the document (a fragment, pushState) leaves every frame where it was
  const replacedTop = effects.navigated && page.epoch !== epoch;
  const report: ActionReport = replacedTop ? tab.frameChoices.end(page, {}) : {};
  if (locator !== undefined) report.locator = locator;
  // a submission the browser's validation stopped shows a person a bubble, and changes nothing else
  const invalid = effects.navigated ? [] : engine.invalidFields(probed);
  if (invalid.length) report.invalid = invalid;
  // a navigation may land on a login wall, a CAPTCHA or a consent wall: said in the same reply
  const challenge = effects.navigated ? await detectChallenge(page, latestDocumentStatus(page)) : undefined;
  if (challenge) report.challenge = challenge;
  if (options.diff) {
    const after = await engine
      .snapshot({ interactive: true, diff: !effects.navigated, appeared: true })
      .catch(() => undefined);
    if (after) report.diff = effects.navigated ? `(navigated: the new page)\n${after.text}` : after.text;
  }
  return { value, effects: { ...effects, ...report } };
}

/** The stable locator of a target, or undefined (a target that does not resolve fails in the action itself). */
export async function locatorOf(engine: SnapshotEngine, target: string): Promise<string | undefined> {
  const handle = await engine.resolve(target).catch(() => undefined);
  return handle ? locatorOfElement(engine, handle) : undefined;
}

/** The stable locator of an element found already (stableLocator gives undefined rather than fail). */
function locatorOfElement(engine: SnapshotEngine, handle: ElementHandle): Promise<string | undefined> {
  // locators and selectors resolve in the top document: an element of a frame gets none
  return handle.frameId === engine.page.mainFrameId ? stableLocator(handle) : Promise.resolve(undefined);
}
