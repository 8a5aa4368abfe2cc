import { ProtocolError } from './transport.js';

/** Chrome's answer to a call still awaited in a document the page left (an awaited script, a wait's promise). */
export const NAVIGATED_AWAY = /Inspected target navigated or closed|Execution context was destroyed/;

/**
 * Chrome's answers to a call whose document went away under it: one still awaited in it
 * (NAVIGATED_AWAY), or one sent with the old document's context (a cached isolated world).
 */
const DOCUMENT_GONE = new RegExp(
  `${NAVIGATED_AWAY.source}|Cannot find context with specified id|Cannot find default execution context`,
);

/** Whether a call failed because its document went away (the page navigated), not for a reason of its own. */
export function isDocumentGone(error: unknown): boolean {
  return error instanceof ProtocolError && DOCUMENT_GONE.test(error.message);
}
