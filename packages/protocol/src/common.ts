import { z } from 'zod';
import { normaliseUrl } from './url.js';

/**
 * A tab as `tabs` lists it: its index, id or id prefix. An index is a number to an agent
 * (`argus_tab {id: 1}`), so an integer is taken as its digits. The listed JSON schema stays
 * `string` (the input side of the preprocess): a union would cost the core tool list tokens it has not.
 */
export const TabId = z
  .preprocess(
    (value: string | number) => (typeof value === 'number' && Number.isInteger(value) ? String(value) : value),
    z.string().min(1).max(64),
  )
  .describe('Tab index or id (prefix) from `tabs`; default: the active tab');

export const TARGET_DESCRIPTION =
  'Element: snapshot ref (e12), locator (text=Save, label=Email, role=button[name="Save"]) or CSS selector';

export const Target = z.string().min(1).max(2000).describe(TARGET_DESCRIPTION);

export const TimeoutMs = z.number().int().min(0).max(300_000).describe('How long to wait, in milliseconds');

/** An action's bound on waiting for its element (SnapshotEngine.resolveWaiting, then actionability). */
export const ActionTimeout = TimeoutMs.default(5_000).describe(
  'How long to wait for the element to appear and be actionable',
);

export const HttpUrl = z
  .string()
  .min(1)
  .max(8192)
  .describe(
    'URL: http(s), about:blank or data:; a bare host gets https://, or http:// when loopback (localhost:3000); file: only if the operator allows it',
  )
  .transform((value, ctx) => {
    const parsed = normaliseUrl(value);
    if (!parsed.ok) {
      ctx.addIssue({ code: 'custom', message: parsed.message });
      return z.NEVER;
    }
    // script URLs run in whatever page is open: no operator setting can allow them, so they are bad input
    const scheme = /^([a-z][a-z0-9+.-]*):/i.exec(parsed.url)?.[1]?.toLowerCase();
    if (scheme === 'javascript' || scheme === 'vbscript') {
      ctx.addIssue({
        code: 'custom',
        message: `URL scheme ${scheme}: is not allowed; use http(s), about:blank, data: (or file: when the operator allows it). To run script, use eval`,
      });
      return z.NEVER;
    }
    return parsed.url;
  });

/** A URL a web provider reads (fetch, crawl): they read http(s) only; about:, data: and file: are the browser's. */
export const WebUrl = HttpUrl.describe(
  'URL: http(s) only; a bare host gets https://, or http:// when loopback (localhost:3000)',
);

/**
 * A path on the daemon's machine, relative to the caller's directory (`~` is the home directory).
 * A NUL byte can never be part of a file name: refusing it here keeps it from reaching `fs` as an
 * untyped error.
 */
export const FilePath = z
  .string()
  .min(1)
  .max(4096)
  .refine((value) => !value.includes('\0'), 'a path cannot contain a NUL byte')
  .describe(
    'A path, relative to your current directory (~ is your home); inside your project, the temp dir or an allowed root',
  );

/** Whether a command that writes a file may replace one that exists. */
export const Overwrite = z.boolean().default(false).describe('Replace an existing file');

/** Characters of a page title kept in results: a page sets its title, and a 6,000-character one flooded replies. */
export const TITLE_MAX = 200;

/** A document title, page-controlled text: cut to TITLE_MAX characters (`read.title` returns it whole). */
export const Title = z
  .string()
  .transform((title) => (title.length > TITLE_MAX ? `${title.slice(0, TITLE_MAX - 1)}…` : title))
  .describe(`Document title (cut to ${TITLE_MAX} characters)`);

export const PageInfo = z.object({
  url: z.string().describe('Current URL of the tab'),
  title: Title,
});

/**
 * What the page put between the agent and its content after a navigation: a login wall, a CAPTCHA
 * or bot check, a consent wall. Argus never solves or evades these; the hint says how to hand the
 * tab to a person (`argus handoff`). Absent when nothing was seen.
 */
export const Challenge = z
  .object({
    kind: z
      .enum(['login', 'captcha', 'bot_check', 'consent'])
      .describe('login wall, CAPTCHA widget, bot-check interstitial, or consent wall'),
    hint: z.string().describe('What was seen and what to do: hand the tab to a person with `argus handoff`'),
  })
  .optional()
  .describe('Set when the new page asks for a person (login, CAPTCHA, bot check, consent); absent otherwise');

/**
 * A JavaScript dialog the tab answered by itself, as reported once in the next reply that carries
 * dialogs (an action, a navigation, eval, wait, snapshot, and every read of the page: text, html,
 * title, url, screenshot, links, forms, accessibility, media, data, inspect, css, attrs, is,
 * cookies, storage, perf, console, network, network get, canvas node-of): opened during that command, or after the
 * previous reply (a timer's confirm, a page's alert on load).
 */
const DialogReport = z.object({
  type: z.string().describe('alert, confirm, prompt or beforeunload'),
  message: z.string(),
  handled: z.enum(['accepted', 'dismissed']),
  at: z.number().describe('When it opened, milliseconds since the epoch'),
});

/** The dialogs of a reply other than an action's: absent when there were none. */
export const UnreportedDialogs = z
  .array(DialogReport)
  .optional()
  .describe(
    'JavaScript dialogs the tab answered since the previous reply, each reported once (at most the 20 newest; `dialog` lists all); absent when none',
  );

/**
 * The frame choice (`argus frame`) a navigation of the top document ended, by a navigation command
 * or an action (a click on a `target=_top` link, Enter in a form): the new document's iframes are
 * other frames, so the agent is told in that reply rather than left to find out.
 */
export const FrameCleared = z
  .string()
  .optional()
  .describe(
    'Set when a frame was chosen with `argus frame` and this navigated the top document: the command that chose it (e.g. `argus frame "#checkout"`). The navigation ended that choice; later commands run in the top document until you choose again. Absent otherwise',
  );

/** Side effects an action observed, so the caller need not poll for them. */
export const ActionEffects = z.object({
  navigated: z.boolean().describe('Whether the action caused a navigation'),
  url: z.string().describe('URL after the action'),
  frameCleared: FrameCleared,
  dialogs: z
    .array(DialogReport)
    .describe(
      'JavaScript dialogs answered during the action or since the previous reply, each reported once (at most the 20 newest)',
    ),
  consoleErrors: z.array(z.string()).describe('Console errors logged during the action'),
  locator: z
    .string()
    .optional()
    .describe(
      'A target naming the element acted on that still works after a reload: role=…[name="…"], label="…", text="…" or a CSS path; unique on the page',
    ),
  diff: z
    .string()
    .optional()
    .describe(
      'With diff: what the action changed in the interactive snapshot (+ added, - removed, ~ changed) and short text it made appear that the snapshot does not print (+ text: Saved!, at most 3), or the new page after a navigation',
    ),
  openedTabs: z
    .array(z.object({ id: z.string(), url: z.string() }))
    .default([])
    .describe('Tabs the action opened (a target=_blank link, window.open); the active tab does not change'),
  download: z
    .object({ url: z.string(), filename: z.string() })
    .nullable()
    .default(null)
    .describe('A download the action started instead of navigating (see `argus downloads`)'),
  challenge: Challenge,
  invalid: z
    .array(z.object({ element: z.string(), message: z.string() }))
    .optional()
    .describe(
      "Fields whose validation kept a form from being submitted (the browser's own check), with the message it shows a person",
    ),
});

/** Every action's `diff` input: the snapshot diff in the same reply, so no snapshot call follows. */
export const IncludeDiff = z.boolean().default(false).describe('Also return the snapshot diff it caused');
