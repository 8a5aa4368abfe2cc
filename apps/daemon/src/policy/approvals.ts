import { randomBytes } from 'node:crypto';
import { ArgusError } from '@argus/protocol';
import type { Logger } from '../logger.js';

export interface ApprovalRequest {
  command: string;
  summary: string;
  reason: string;
  client: string | undefined;
  timeoutMs: number;
  signal?: AbortSignal | undefined;
}

interface Pending extends ApprovalRequest {
  id: string;
  createdAt: number;
  settle(decision: 'approved' | 'denied'): void;
}

/** A waiting command as callers see it (`argus approvals`, `approvals.watch`). */
export interface PendingView {
  id: string;
  command: string;
  summary: string;
  reason: string;
  client: string | null;
  waitingMs: number;
  expiresInMs: number;
}

export type ApprovalListener = (pending: PendingView) => void;

function view(entry: Pending, now: number): PendingView {
  return {
    id: entry.id,
    command: entry.command,
    summary: entry.summary,
    reason: entry.reason,
    client: entry.client ?? null,
    waitingMs: now - entry.createdAt,
    expiresInMs: Math.max(0, entry.createdAt + entry.timeoutMs - now),
  };
}

/**
 * Commands waiting for the operator. `request` resolves once approved, and rejects with
 * `approval_denied` (denied, or the caller went away) or `approval_timeout`. Every outcome is logged.
 */
export class ApprovalQueue {
  private readonly pending = new Map<string, Pending>();
  private readonly listeners = new Set<ApprovalListener>();

  constructor(private readonly log: Logger) {}

  /** Called for each new pending approval (e.g. to ask an MCP client through elicitation). */
  onRequest(listener: ApprovalListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  request(request: ApprovalRequest): Promise<void> {
    const id = randomBytes(3).toString('hex');
    const createdAt = Date.now();
    return new Promise<void>((resolve, reject) => {
      const finish = (outcome: 'approved' | 'denied' | 'timeout' | 'cancelled') => {
        if (!this.pending.delete(id)) return;
        clearTimeout(timer);
        request.signal?.removeEventListener('abort', onAbort);
        this.log.info(`approval.${outcome}`, {
          id,
          command: request.command,
          client: request.client,
          waitedMs: Date.now() - createdAt,
        });
        if (outcome === 'approved') return resolve();
        if (outcome === 'timeout') {
          return reject(
            new ArgusError(
              'approval_timeout',
              `${request.command} waited ${request.timeoutMs} ms for an approval that never came (${request.reason}). Ask the operator to run \`argus approvals\` and \`argus approve <id>\`, then retry.`,
              { details: { id } },
            ),
          );
        }
        reject(
          new ArgusError(
            'approval_denied',
            `The operator denied ${request.command} (${request.reason}). Do not retry it; ask the operator what to do instead.`,
            { details: { id } },
          ),
        );
      };
      const timer = setTimeout(() => finish('timeout'), request.timeoutMs);
      const onAbort = () => finish('cancelled');
      request.signal?.addEventListener('abort', onAbort, { once: true });
      const entry: Pending = { ...request, id, createdAt, settle: (decision) => finish(decision) };
      this.pending.set(id, entry);
      this.log.info('approval.requested', {
        id,
        command: request.command,
        summary: request.summary,
        reason: request.reason,
        client: request.client,
      });
      for (const listener of this.listeners) listener(view(entry, createdAt));
    });
  }

  list(): PendingView[] {
    const now = Date.now();
    return [...this.pending.values()].map((entry) => view(entry, now));
  }

  decide(
    id: string,
    decision: 'approved' | 'denied',
  ): { id: string; command: string; decision: 'approved' | 'denied' } {
    const entry = this.pending.get(id);
    if (!entry)
      throw new ArgusError(
        'invalid_input',
        `No pending approval "${id}" (it may have been decided or timed out). Run \`argus approvals\` for the list.`,
      );
    entry.settle(decision);
    return { id, command: entry.command, decision };
  }

  /** Denies everything still waiting (daemon stopping). */
  close(): void {
    for (const entry of [...this.pending.values()]) entry.settle('denied');
  }
}
