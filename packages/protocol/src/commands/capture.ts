import { z } from 'zod';
import { defineCommand } from '../define.js';
import { FilePath, Overwrite, TabId, Title, UnreportedDialogs } from '../common.js';

/** Bodies above this are never fetched through the browser (matches BODY_FETCH_LIMIT in @argus/cdp). */
export const MAX_BODY_BYTES = 20_000_000;

const Since = z.number().int().min(0).describe('Only entries after this lastSeq (of the previous call)');
const Limit = z.number().int().min(1).max(5_000).default(500).describe('Return at most this many entries (the newest)');
const Clear = z.boolean().default(false).describe('Empty the buffer after reading');

export const ConsoleEntry = z.object({
  seq: z.number().describe("Sequence number in this tab's console buffer"),
  level: z.enum(['log', 'info', 'warn', 'error', 'debug', 'trace', 'other']),
  text: z.string(),
  source: z.enum(['console', 'exception', 'log']).describe('console.* call, uncaught exception, or browser log entry'),
  url: z.string().nullable().describe('Script URL of the call site'),
  line: z.number().nullable(),
  column: z.number().nullable(),
  stack: z.string().nullable().describe('Stack trace (errors, exceptions, console.trace)'),
  timestamp: z.number().describe('Milliseconds since the epoch'),
  page: z.string().nullable().describe('The URL the tab was at when it was logged'),
});

export const NetworkEntry = z.object({
  id: z.number().describe('Request id in this tab (for `network get <id>`)'),
  method: z.string(),
  url: z.string(),
  type: z.string().describe('Resource type: Document, Script, Stylesheet, Image, XHR, Fetch, ...'),
  status: z.number().nullable().describe('HTTP status; null while pending or when the request failed'),
  statusText: z.string(),
  mimeType: z.string(),
  state: z.enum(['pending', 'finished', 'failed']),
  startedAt: z.number().describe('Start, milliseconds since the epoch'),
  durationMs: z.number().nullable().describe('Time from start to finish (or failure)'),
  encodedBytes: z.number().nullable().describe('Bytes on the wire, headers included'),
  decodedBytes: z.number().describe('Body bytes after decoding'),
  fromCache: z.boolean(),
  errorText: z.string().nullable().describe('Why the request failed'),
});

const DialogEntry = z.object({
  seq: z.number(),
  type: z.string().describe('alert, confirm, prompt or beforeunload'),
  message: z.string(),
  url: z.string(),
  defaultPrompt: z.string(),
  handled: z.enum(['accepted', 'dismissed']),
  promptText: z.string().nullable().describe('Text entered into an accepted prompt'),
  timestamp: z.number(),
});

/** Answers armed on one tab at once, at most (MAX_ARMED_DIALOG_ANSWERS in @argus/cdp). */
export const MAX_ARMED_DIALOGS = 20;

const ArmedAnswers = z
  .array(
    z.object({
      accept: z.boolean(),
      promptText: z.string().nullable(),
      expiresAt: z
        .number()
        .describe('Dropped unused after this, milliseconds since the epoch (5 minutes after arming)'),
    }),
  )
  .describe(
    `Answers armed for the next dialogs, used in order (at most ${MAX_ARMED_DIALOGS}); a dialog with none gets the default (alert/beforeunload accepted, confirm/prompt dismissed)`,
  );

export const captureCommands = {
  console: defineCommand({
    name: 'capture.console',
    cli: {
      verb: 'console',
      examples: [
        'argus console',
        'argus console --errors',
        'argus console --since 42',
        'argus console --clear',
        'argus console --follow',
      ],
    },
    tool: 'argus_console',
    kind: 'query',
    scope: 'read',
    summary:
      'Console messages and uncaught errors of a tab (level, text, location, stack) since it opened. `--follow` streams new ones.',
    input: () =>
      z.object({
        errors: z.boolean().default(false).describe('Only console errors and uncaught exceptions'),
        since: Since.optional(),
        limit: Limit,
        clear: Clear,
        tab: TabId.optional(),
      }),
    output: () =>
      z.object({
        messages: z.array(ConsoleEntry),
        lastSeq: z.number().describe('Sequence number of the newest entry seen; pass it as --since next time'),
        omitted: z.number().describe('Matching entries left out by --limit (the oldest)'),
        cleared: z.boolean(),
        dialogs: UnreportedDialogs,
      }),
    pageContent: ['messages'],
  }),
  consoleFollow: defineCommand({
    name: 'capture.consoleFollow',
    cli: {
      verb: 'console --follow',
      examples: ['argus console --follow', 'argus console --follow --errors', 'argus console --follow --json'],
    },
    tool: false,
    kind: 'subscription',
    scope: 'read',
    summary: 'Stream console messages and uncaught errors of a tab as they happen, until Ctrl-C.',
    input: () =>
      z.object({
        errors: z.boolean().default(false).describe('Only errors'),
        since: Since.optional().describe('First replay buffered entries with a sequence number above N'),
        tab: TabId.optional(),
      }),
    output: () => ConsoleEntry,
    pageContent: ['text', 'stack'],
  }),
  network: defineCommand({
    name: 'capture.network',
    cli: {
      verb: 'network',
      examples: [
        'argus network',
        'argus network --failed',
        'argus network --filter /api/',
        'argus network --since 10 --clear',
        'argus network --follow',
      ],
    },
    tool: 'argus_network',
    kind: 'query',
    scope: 'read',
    summary:
      'Network requests of a tab (method, URL, status, type, timing, sizes) since it opened. `network get <id>` shows headers and the body.',
    input: () =>
      z.object({
        failed: z.boolean().default(false).describe('Only failures and HTTP errors (>= 400)'),
        filter: z.string().min(1).max(2000).optional().describe('Only URLs containing this text'),
        since: Since.optional(),
        limit: Limit,
        clear: Clear,
        tab: TabId.optional(),
      }),
    output: () =>
      z.object({
        requests: z.array(NetworkEntry),
        lastSeq: z.number().describe('Id of the newest request seen; pass it as --since next time'),
        omitted: z.number().describe('Matching requests left out by --limit (the oldest)'),
        cleared: z.boolean(),
        dialogs: UnreportedDialogs,
      }),
    pageContent: ['requests'],
  }),
  networkFollow: defineCommand({
    name: 'capture.networkFollow',
    cli: {
      verb: 'network --follow',
      examples: ['argus network --follow', 'argus network --follow --failed --filter /api/'],
    },
    tool: false,
    kind: 'subscription',
    scope: 'read',
    summary: 'Stream requests of a tab as they finish or fail, until Ctrl-C.',
    input: () =>
      z.object({
        failed: z.boolean().default(false).describe('Only failed requests and HTTP errors'),
        filter: z.string().min(1).max(2000).optional().describe('Only URLs containing this text'),
        tab: TabId.optional(),
      }),
    output: () => NetworkEntry,
    pageContent: ['url'],
  }),
  networkGet: defineCommand({
    name: 'capture.networkGet',
    cli: {
      verb: 'network get',
      positionals: ['id'],
      examples: ['argus network get 12', 'argus network get 12 --body', 'argus network get 12 --reveal'],
    },
    tool: 'argus_network_get',
    kind: 'query',
    scope: 'read',
    summary:
      'One request in full: headers (credentials redacted unless --reveal with an admin token) and, with --body, the response body fetched on demand.',
    input: () =>
      z.object({
        id: z.number().int().min(1).describe('Request id from `network`'),
        body: z.boolean().default(false).describe('Fetch the response body'),
        maxBytes: z
          .number()
          .int()
          .min(1)
          .max(MAX_BODY_BYTES)
          .default(1_000_000)
          .describe('Cut the body after this many bytes'),
        reveal: z
          .boolean()
          .default(false)
          .describe(
            'Show Authorization, Cookie, Set-Cookie and token-like header values (needs an admin-scoped token)',
          ),
        tab: TabId.optional(),
      }),
    output: () =>
      NetworkEntry.extend({
        requestHeaders: z.record(z.string(), z.string()),
        responseHeaders: z.record(z.string(), z.string()),
        redacted: z.boolean().describe('Whether credential-like header values were replaced by [redacted]'),
        body: z.string().nullable().describe('Response body (with --body); base64 when `base64` is true'),
        base64: z.boolean(),
        bodyBytes: z.number().nullable().describe('Size of the whole body in bytes, when known'),
        truncated: z.boolean(),
        bodyNote: z.string().nullable().describe('Why the body is missing or cut'),
        dialogs: UnreportedDialogs,
      }),
    pageContent: ['body'],
  }),
  dialogs: defineCommand({
    name: 'capture.dialogs',
    cli: { verb: 'dialog', examples: ['argus dialog', 'argus dialog --clear', 'argus dialog --disarm'] },
    tool: 'argus_dialog',
    kind: 'query',
    scope: 'read',
    summary:
      'Log of JavaScript dialogs (alert, confirm, prompt, beforeunload) and how each was answered, and the armed answers. Dialogs never block: alert/beforeunload are accepted, confirm/prompt dismissed, unless an answer is armed. `--disarm` drops the armed answers.',
    input: () =>
      z.object({
        since: Since.optional(),
        clear: Clear,
        disarm: z
          .boolean()
          .default(false)
          .describe('Drop every armed answer (needs a write token): the next dialogs get the default'),
        tab: TabId.optional(),
      }),
    output: () =>
      z.object({
        dialogs: z.array(DialogEntry),
        lastSeq: z.number(),
        armed: ArmedAnswers,
        disarmed: z.number().describe('Armed answers dropped by --disarm'),
        cleared: z.boolean(),
      }),
    pageContent: ['dialogs'],
  }),
  dialogAccept: defineCommand({
    name: 'capture.dialogAccept',
    cli: {
      verb: 'dialog accept',
      positionals: ['text...'],
      examples: ['argus dialog accept', 'argus dialog accept "Ada Lovelace"'],
    },
    tool: 'argus_dialog_accept',
    kind: 'mutation',
    scope: 'write',
    summary: 'Accept the next dialog (a prompt gets this text); call it before the action that opens it.',
    input: () =>
      z.object({
        text: z.string().max(100_000).optional().describe('Text to enter into a prompt'),
        tab: TabId.optional(),
      }),
    output: () => z.object({ armed: ArmedAnswers }),
  }),
  dialogDismiss: defineCommand({
    name: 'capture.dialogDismiss',
    cli: { verb: 'dialog dismiss', examples: ['argus dialog dismiss'] },
    tool: 'argus_dialog_dismiss',
    kind: 'mutation',
    scope: 'write',
    summary: 'Dismiss (cancel) the next dialog; call it before the action that opens it.',
    input: () => z.object({ tab: TabId.optional() }),
    output: () => z.object({ armed: ArmedAnswers }),
  }),
  debugTrace: defineCommand({
    name: 'capture.debugTrace',
    cli: {
      verb: 'debug-trace',
      positionals: ['path'],
      examples: ['argus debug-trace', 'argus debug-trace bug-123.json'],
    },
    tool: 'argus_debug_trace',
    kind: 'mutation',
    scope: 'write',
    summary:
      'Write one JSON bundle for a bug report: URL, title, console, page errors, network (headers redacted), dialogs and a screenshot.',
    input: () =>
      z.object({
        path: FilePath.optional().describe(
          'Where to write the JSON (relative to your directory; inside your project, the temp dir or an allowed root); default: the state dir. The PNG goes next to it',
        ),
        overwrite: Overwrite,
        tab: TabId.optional(),
      }),
    output: () =>
      z.object({
        path: z.string().describe('The JSON bundle'),
        screenshot: z.string().nullable().describe('The PNG next to it (null if the capture failed)'),
        url: z.string(),
        title: Title,
        console: z.number().describe('Console entries in the bundle'),
        pageErrors: z.number().describe('Uncaught exceptions in the bundle'),
        network: z.number().describe('Requests in the bundle'),
        failedRequests: z.number(),
        dialogs: z.number(),
      }),
  }),
};
