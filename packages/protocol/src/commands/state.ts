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
    summary: "Set a cookie (for the tab's current site unless --domain is given).",
    input: z.object({
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
      expires: z.number().int().min(0).optional().describe('Expiry as Unix time in seconds; default: a session cookie'),
      tab: TabId.optional(),
    }),
    output: z.object({ name: z.string(), domain: z.string(), path: z.string() }),
  }),
  cookieImport: defineCommand({
    name: 'state.cookieImport',
    cli: { verb: 'cookie-import', positionals: ['file'], examples: ['argus cookie-import cookies.json'] },
    tool: 'argus_cookie_import',
    kind: 'mutation',
    scope: 'write',
    summary:
      'Import cookies from a JSON file: an array of CDP cookies or {name, value, domain} objects (browser-extension exports work).',
    input: z.object({
      file: FilePath.describe(
        'JSON file (relative to your directory; inside your project, the temp dir or an allowed root)',
      ),
      tab: TabId.optional(),
    }),
    output: z.object({
      imported: z.number().describe('Cookies set'),
      skipped: z.array(z.object({ index: z.number(), reason: z.string() })).describe('Entries left out, with why'),
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
    input: z.object({ name: StateName }),
    output: z.object({
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
    input: z.object({
      name: StateName,
      restoreTabs: z.boolean().default(true).describe('Open the saved tab URLs that are not open already'),
      timeoutMs: TimeoutMs.default(30_000).describe('Load timeout for each restored tab, in milliseconds'),
    }),
    output: z.object({
      name: z.string(),
      cookies: z.number().describe('Cookies set'),
      origins: z.number().describe('Origins whose localStorage was restored'),
      tabsOpened: z.array(z.string()).describe('Tab ids opened'),
      warnings: z.array(z.string()).describe('What could not be restored'),
    }),
  }),
};
