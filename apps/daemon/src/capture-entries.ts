import type { ConsoleRecord, DialogRecord, DialogReport, NetworkRecord, Page } from '@argus/cdp';
import { redactHeaders } from '@argus/security';

/** Contract shapes of the capture buffers' records (see packages/protocol/src/commands/capture.ts). */
export function consoleEntry(record: ConsoleRecord, seq: number) {
  return {
    seq,
    level: record.level,
    text: record.text,
    source: record.source,
    url: record.url || null,
    line: record.line ?? null,
    column: record.column ?? null,
    stack: record.stack ?? null,
    timestamp: record.timestamp,
    page: record.page ?? null,
  };
}

export function networkEntry(record: NetworkRecord, seq: number) {
  return {
    id: seq,
    method: record.method,
    url: record.url,
    type: record.resourceType,
    status: record.status,
    statusText: record.statusText,
    mimeType: record.mimeType,
    state: record.state,
    startedAt: record.startedAt,
    durationMs: record.durationMs,
    encodedBytes: record.encodedBytes,
    decodedBytes: record.decodedBytes,
    fromCache: record.fromCache,
    errorText: record.errorText ?? null,
  };
}

export function dialogEntry(record: DialogRecord, seq: number) {
  return {
    seq,
    type: record.type,
    message: record.message,
    url: record.url,
    defaultPrompt: record.defaultPrompt,
    handled: record.handled,
    promptText: record.promptText ?? null,
    timestamp: record.timestamp,
  };
}

/**
 * A reply with the dialogs the tab answered that no earlier reply reported (opened during this
 * command, or after the previous reply: a timer's confirm, an alert on load); absent when none.
 * Each dialog is reported once. Only for outputs whose schema has `dialogs` (UnreportedDialogs):
 * the router would drop the field from any other, and the dialogs with it.
 */
export function withDialogs<R extends object>(page: Page, result: R): R & { dialogs?: DialogReport[] } {
  if (page.closed) return result;
  const dialogs = page.capture.takeUnreported();
  return dialogs.length ? { ...result, dialogs } : result;
}

/** Headers as shown: credentials redacted unless revealed. */
export function shownHeaders(
  headers: Record<string, string>,
  reveal: boolean,
): { headers: Record<string, string>; redacted: boolean } {
  if (reveal) return { headers: { ...headers }, redacted: false };
  const redacted = redactHeaders(headers);
  return { headers: redacted, redacted: Object.keys(headers).some((name) => redacted[name] !== headers[name]) };
}
