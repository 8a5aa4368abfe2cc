import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { manifest } from '@argus/protocol';
import type { PendingApproval } from './daemon-link.js';
import type { CommandCaller } from './run-tool.js';
import { DaemonStream } from './daemon-stream.js';

/** What the MCP server needs from its daemon link to ask its user about approvals. */
export interface ApprovalSource {
  /** This server's name at the daemon; approvals its calls wait for carry it as `client`. */
  readonly name: string;
  watchApprovals(onPending: (pending: PendingApproval) => void, onEnd: () => void): Promise<() => void>;
}

const QUESTION: {
  type: 'object';
  properties: { approve: { type: 'boolean'; title: string; description: string } };
  required: string[];
} = {
  type: 'object',
  properties: {
    approve: {
      type: 'boolean',
      title: 'Approve',
      description: 'Yes runs the command now; no denies it (the agent gets approval_denied).',
    },
  },
  required: ['approve'],
};

/**
 * MCP elicitation for the approval policy (`policy.approve` in the config): when a command this
 * server called waits for an approval and its client supports elicitation, the person at the client
 * is asked, and the answer approves or denies it at the daemon. A dismissed or failed question
 * leaves the approval to the operator (`argus approve`) until it times out. Approvals other clients'
 * calls wait for are never shown here.
 */
export class ApprovalElicitor {
  private readonly stream = new DaemonStream((onEnd) =>
    this.source.watchApprovals((pending) => void this.ask(pending), onEnd),
  );
  private readonly asked = new Set<string>();

  constructor(
    private readonly server: Server,
    private readonly source: ApprovalSource,
    private readonly caller: CommandCaller,
    /** Readies what checks the answers (the server's JSON Schema validator) before a question goes out. */
    private readonly beforeAsking: () => Promise<void> = () => Promise.resolve(),
  ) {}

  /** Starts watching once the client has said it can answer questions; called before each tool call. */
  ensure(): Promise<void> {
    if (!this.server.getClientCapabilities()?.elicitation) return Promise.resolve();
    return this.stream.ensure();
  }

  private async ask(pending: PendingApproval): Promise<void> {
    if (pending.client !== this.source.name || this.asked.has(pending.id)) return;
    this.asked.add(pending.id);
    let approve: boolean | undefined;
    try {
      await this.beforeAsking();
      const answer = await this.server.elicitInput(
        {
          message: `Argus: ${pending.command} waits for your approval.\n${pending.summary}\nWhy: ${pending.reason}`,
          requestedSchema: QUESTION,
        },
        { timeout: Math.max(1_000, pending.expiresInMs) },
      );
      if (answer.action === 'accept') approve = answer.content?.approve === true;
      else if (answer.action === 'decline') approve = false;
    } catch {
      approve = undefined;
    }
    if (approve === undefined) return;
    const command = approve ? manifest.approvals.approve : manifest.approvals.deny;
    // it may have been decided by the operator or timed out meanwhile: nothing left to do then
    await this.caller.call(command, { id: pending.id }).catch(() => undefined);
  }
}
