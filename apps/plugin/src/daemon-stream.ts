/**
 * A daemon stream the MCP server follows (approvals, the inbox): subscribed once on demand, and
 * again on the next `ensure()` after it broke (the daemon went away) or failed to start.
 */
export class DaemonStream {
  private watching: Promise<void> | undefined;

  constructor(private readonly subscribe: (onEnd: () => void) => Promise<unknown>) {}

  get active(): boolean {
    return this.watching !== undefined;
  }

  ensure(): Promise<void> {
    this.watching ??= this.subscribe(() => {
      // the daemon went away: the next call follows the new one
      this.watching = undefined;
    })
      .then(() => undefined)
      .catch(() => {
        this.watching = undefined;
      });
    return this.watching;
  }
}
