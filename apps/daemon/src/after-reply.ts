/**
 * Book-keeping a command's observers do once its reply is on its way: the journal's row and the
 * watch feed's entry (redacting the input, building the record). The router calls an observer when
 * the handler settles, before the reply is sent; run there, that work was on every command's path
 * (a tenth of a small snapshot's CPU in a fresh MCP server, issue 16). What must be read at that
 * moment (the tab, the URL, the duration) is read there; the rest is queued here and runs in one
 * `setImmediate`, after the microtasks that send the reply, in the order the commands settled.
 * Everything queued in one turn runs in one callback, so the journal and the feed share one
 * redaction of a call (redactInput's memo lasts a microtask).
 */
const pending: Array<() => void> = [];
let scheduled: NodeJS.Immediate | undefined;

/** Runs `task` once the current turn's replies are sent. A task that throws is dropped: observers never fail a call. */
export function afterReply(task: () => void): void {
  pending.push(task);
  scheduled ??= setImmediate(runAfterReply);
}

/** Runs what is queued now: a journal read or close sees every command that has answered. */
export function runAfterReply(): void {
  if (scheduled) clearImmediate(scheduled);
  scheduled = undefined;
  while (pending.length > 0) {
    for (const task of pending.splice(0)) {
      try {
        task();
      } catch {
        // the journal reports its own failures in `status`; a record lost here loses no command
      }
    }
  }
}
