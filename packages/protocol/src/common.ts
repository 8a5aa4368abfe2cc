import { z } from 'zod';

export const TabId = z
  .string()
  .min(1)
  .max(64)
  .describe('Tab id from `tabs`; defaults to the active tab');

export const Target = z
  .string()
  .min(1)
  .max(2000)
  .describe('Element: a snapshot ref (e12), a locator (role=button[name="Save"], text=Save, label=Email) or a CSS selector');

export const TimeoutMs = z
  .number()
  .int()
  .min(0)
  .max(300_000)
  .describe('How long to wait, in milliseconds');

export const HttpUrl = z
  .string()
  .min(1)
  .max(8192)
  .describe('Absolute http(s), file, data or about URL; a bare host like example.com gets https://')
  .transform((value, ctx) => {
    const trimmed = value.trim();
    const candidate = /^[a-z][a-z0-9+.-]*:/i.test(trimmed) ? trimmed : `https://${trimmed}`;
    let parsed: URL;
    try {
      parsed = new URL(candidate);
    } catch {
      ctx.addIssue({ code: 'custom', message: `"${value}" is not a URL. Pass an absolute URL such as https://example.com` });
      return z.NEVER;
    }
    if (!['http:', 'https:', 'file:', 'data:', 'about:'].includes(parsed.protocol)) {
      ctx.addIssue({ code: 'custom', message: `URL scheme ${parsed.protocol} is not allowed; use http(s), file, data or about` });
      return z.NEVER;
    }
    if ((parsed.protocol === 'http:' || parsed.protocol === 'https:') && !parsed.hostname) {
      ctx.addIssue({ code: 'custom', message: `"${value}" has no host` });
      return z.NEVER;
    }
    return parsed.href;
  });

export const PageInfo = z.object({
  url: z.string().describe('Current URL of the tab'),
  title: z.string().describe('Document title'),
});

/** Side effects an action observed, so the caller need not poll for them. */
export const ActionEffects = z.object({
  navigated: z.boolean().describe('Whether the action caused a navigation'),
  url: z.string().describe('URL after the action'),
  dialogs: z
    .array(z.object({ type: z.string(), message: z.string(), handled: z.string() }))
    .describe('JavaScript dialogs opened during the action'),
  consoleErrors: z.array(z.string()).describe('Console errors logged during the action'),
});
