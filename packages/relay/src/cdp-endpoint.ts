import type { WebSocket } from 'ws';
import type { RelayContext } from './context.js';
import type { LeaseQueue } from './lease.js';
import { toWireError } from './wire-error.js';
import type { EventParams } from './wire/index.js';

interface RawCommand {
  id: number;
  method: string;
  params?: Record<string, unknown>;
  sessionId?: string;
}

/**
 * /cdp?targetId=...: raw CDP forwarding to one tab for compatibility with existing CDP clients.
 * The client holds a FIFO lease on the tab; commands it sends while waiting are held and run once
 * the lease is granted. Custom events `Argus.leaseWaiting` / `Argus.leaseGranted` tell it where it is.
 */
export function acceptCdp(ctx: RelayContext, leases: LeaseQueue, socket: WebSocket, targetId: string): void {
  const held: RawCommand[] = [];
  const children = new Set<string>();
  let sessionId: string | undefined;
  let closed = false;
  const sendJson = (value: unknown) => socket.readyState === 1 && socket.send(JSON.stringify(value));

  const lease = leases.acquire(targetId, () => void grant());
  if (lease.position > 0) sendJson({ method: 'Argus.leaseWaiting', params: { targetId, position: lease.position } });

  async function grant(): Promise<void> {
    try {
      const { tabs } = await ctx.link.send('tabs.list', {});
      const tab = tabs.find((candidate) => candidate.targetId === targetId);
      if (!tab) throw new Error(`No tab with target id ${targetId}.`);
      const attached = await ctx.link.send('debugger.attach', { tabId: tab.tabId });
      if (closed) return void ctx.link.send('debugger.detach', { sessionId: attached.sessionId }).catch(() => {});
      sessionId = attached.sessionId;
      sendJson({ method: 'Argus.leaseGranted', params: { targetId } });
      for (const command of held.splice(0)) run(command);
    } catch (error) {
      socket.close(1011, toWireError(error).message.slice(0, 120));
    }
  }

  function run(command: RawCommand): void {
    if (!sessionId) return void held.push(command);
    const target = command.sessionId && children.has(command.sessionId) ? command.sessionId : sessionId;
    ctx.link.send('cdp.send', { sessionId: target, method: command.method, params: command.params ?? {} }).then(
      ({ result }) =>
        sendJson({ id: command.id, result, ...(command.sessionId ? { sessionId: command.sessionId } : {}) }),
      (error: unknown) => {
        const wire = toWireError(error);
        const code = typeof wire.details?.protocolCode === 'number' ? wire.details.protocolCode : -32000;
        sendJson({ id: command.id, error: { code, message: wire.message } });
      },
    );
  }

  const unsubscribe = ctx.link.onEvent((event, params) => {
    if (event !== 'cdp.event' || !sessionId) return;
    const e = params as EventParams<'cdp.event'>; // validated by the link
    if (e.sessionId === sessionId) {
      const child = (e.params as { sessionId?: string } | undefined)?.sessionId;
      if (e.method === 'Target.attachedToTarget' && child) children.add(child);
      if (e.method === 'Target.detachedFromTarget' && child) children.delete(child);
      sendJson({ method: e.method, params: e.params });
    } else if (children.has(e.sessionId)) {
      sendJson({ method: e.method, params: e.params, sessionId: e.sessionId });
    }
  });

  socket.on('message', (data) => {
    let command: RawCommand;
    try {
      command = JSON.parse(data.toString()) as RawCommand; // shape checked just below
    } catch {
      return;
    }
    if (typeof command.id !== 'number' || typeof command.method !== 'string') return;
    run(command);
  });

  socket.on('close', () => {
    closed = true;
    unsubscribe();
    if (sessionId) void ctx.link.send('debugger.detach', { sessionId }, { timeoutMs: 2000 }).catch(() => {});
    lease.release();
  });
}
