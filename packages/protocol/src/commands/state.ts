import { z } from 'zod';
import { defineCommand } from '../define.js';
import { FilePath, TabId, TimeoutMs } from '../common.js';

const StateName = z
  .string()
  .regex(/^[\w.-]{1,64}$/, '1-64 letters, digits, "_", "." or "-"')
  .refine((name) => !/^\.+$/.test(name), 'a name that is not only dots')
  .describe('State name: 1-64 letters, digits, "_", "." or "-"');

/** Browser state: cookies and saved sessions. */
export const stateCommands = {
  cookieSet: defineCommand({
    name: 'state.cookieSet',
    cli: {
      verb: 'cookie set',
      positionals: ['cookie'],
      examples: ['argus cookie set session=abc', 'argus cookie set theme=dark --domain example.com --secure'],
    },
    tool: 'argus_cookie_set',
    kind: 'mutation',
    scope: 'write',
    summary:
      "Set a cookie (for the tab's current site, its top document's also while a frame is chosen, unless --domain is given).",
    input: () =>
      z.object({
        cookie: z
          .string()
          .min(2)
          .max(8192)
          .regex(/^[^=;\s]+=[^;\r\n]*$/, 'name=value')
          .describe('name=value'),
        domain: z.string().min(1).max(253).optional().describe('Cookie domain; default: the host of the tab'),
        path: z.string().min(1).max(1000).default('/').describe('Cookie path'),
        secure: z.boolean().default(false).describe('Secure cookie (https only)'),
        httpOnly: z.boolean().default(false).describe('HttpOnly cookie (hidden from page scripts)'),
        sameSite: z.enum(['Strict', 'Lax', 'None']).optional().describe('SameSite attribute'),
        expires: z
          .number()
          .int()
          .min(0)
          .optional()
          .describe('Expiry as Unix time in seconds; default: a session cookie'),
        tab: TabId.optional(),
      }),
    output: () => z.object({ name: z.string(), domain: z.string(), path: z.string() }),
  }),
  cookieImport: defineCommand({
    name: 'state.cookieImport',
    cli: { verb: 'cookie-import', positionals: ['file'], examples: ['argus cookie-import cookies.json'] },
    tool: 'argus_cookie_import',
    kind: 'mutation',
    scope: 'write',
    summary:
      'Import cookies from a JSON file: an array of CDP cookies or {name, value, domain} objects (browser-extension exports work).',
    input: () =>
      z.object({
        file: FilePath.describe(
          'JSON file (relative to your directory; inside your project, the temp dir or an allowed root)',
        ),
        tab: TabId.optional(),
      }),
    output: () =>
      z.object({
        imported: z.number().describe('Cookies set'),
        skipped: z.array(z.object({ index: z.number(), reason: z.string() })).describe('Entries left out, with why'),
      }),
  }),
  cookieImportBrowser: defineCommand({
    name: 'state.cookieImportBrowser',
    cli: {
      verb: 'cookie-import-browser',
      examples: [
        'argus cookie-import-browser --domain github.com',
        'argus cookie-import-browser --browser chromium --profile "Profile 1" --domain example.com',
      ],
    },
    // never an agent tool: it reads the operator's own logged-in browser
    tool: false,
    kind: 'mutation',
    scope: 'admin',
    summary:
      "Copy cookies from your own Chrome, Chromium, Brave or Edge profile (Linux, macOS) into Argus's browser, so a managed session starts logged in. Values are decrypted locally and never printed.",
    input: () =>
      z.object({
        domain: z
          .array(
            z
              .string()
              .min(1)
              .max(253)
              .regex(/^\.?[a-z0-9.-]+$/i, 'a host name such as example.com'),
          )
          .max(100)
          .default([])
          .describe('Only cookies of these domains and their subdomains (repeat the flag); default: every cookie'),
        browser: z
          .enum(['chrome', 'chromium', 'brave', 'edge'])
          .optional()
          .describe('Which browser to read; default: the first installed of chrome, chromium, brave, edge'),
        profile: z
          .string()
          .min(1)
          .max(64)
          .default('Default')
          .describe('The profile directory in the browser\'s user-data dir (Default, "Profile 1", ...)'),
        userDataDir: z
          .string()
          .min(1)
          .max(4096)
          .optional()
          .describe("A user-data dir elsewhere (relative to your directory); overrides --browser's location"),
      }),
    output: () =>
      z.object({
        source: z.string().describe('The cookie database read'),
        imported: z.number().describe('Cookies set in the managed browser'),
        domains: z.array(z.object({ domain: z.string(), cookies: z.number() })).describe('Imported cookies per domain'),
        skipped: z.array(z.object({ reason: z.string(), count: z.number() })).describe('Cookies left out, by reason'),
        notes: z.array(z.string()).describe('Keys that could not be had (keyring, Keychain)'),
      }),
  }),
  save: defineCommand({
    name: 'state.save',
    cli: { verb: 'state save', positionals: ['name'], examples: ['argus state save logged-in'] },
    tool: 'argus_state_save',
    kind: 'mutation',
    scope: 'write',
    summary:
      "Save the browser's cookies, the localStorage of each open origin and the open tab URLs under a name (file mode 0600 in the state dir).",
    input: () => z.object({ name: StateName }),
    output: () =>
      z.object({
        name: z.string(),
        path: z.string().describe('Where the state was written'),
        cookies: z.number(),
        origins: z.number().describe('Origins whose localStorage was saved'),
        tabs: z.number().describe('Tab URLs saved'),
      }),
  }),
  load: defineCommand({
    name: 'state.load',
    cli: {
      verb: 'state load',
      positionals: ['name'],
      examples: ['argus state load logged-in', 'argus state load logged-in --no-restore-tabs'],
    },
    tool: 'argus_state_load',
    kind: 'mutation',
    scope: 'write',
    summary:
      'Restore a saved state: cookies, localStorage per origin, and (unless --no-restore-tabs) its tabs that are not open.',
    input: () =>
      z.object({
        name: StateName,
        restoreTabs: z.boolean().default(true).describe('Open the saved tab URLs that are not open already'),
        timeoutMs: TimeoutMs.default(30_000).describe('Load timeout for each restored tab, in milliseconds'),
      }),
    output: () =>
      z.object({
        name: z.string(),
        cookies: z.number().describe('Cookies set'),
        origins: z.number().describe('Origins whose localStorage was restored'),
        tabsOpened: z.array(z.string()).describe('Tab ids opened'),
        warnings: z.array(z.string()).describe('What could not be restored'),
      }),
  }),
};
