import { type Handlers, manifest } from '@argus/protocol';
import type { Services } from '../services.js';
import { prepareRestart } from '../restart.js';
import { HANDOFF_CALLER, callerOf } from '../caller-log.js';
import { claimFor } from '../lease-claims.js';

export function daemonHandlers(services: Services): Handlers['daemon'] {
  const { manager } = services;
  return {
    async status(_input, ctx) {
      return {
        version: services.version,
        pid: process.pid,
        uptimeMs: Date.now() - services.startedAt,
        mode: manager.mode,
        stateDir: services.stateDir,
        logFile: services.logFile,
        idleTimeoutMs: services.idleTimeoutMs,
        browser: {
          running: manager.running,
          pid: manager.pid,
          version: manager.version,
          crashed: manager.hasCrashed,
          launches: manager.launches,
        },
        // pool mode: the caller's session's tabs, never placing a session just to count them
        tabs:
          manager.mode === 'pool'
            ? (manager.current?.tabs().length ?? 0)
            : manager.running
              ? ((await manager.ensure().catch(() => undefined))?.tabs().length ?? 0)
              : 0,
        activeTab: manager.activeTab ?? null,
        tokens: services.tokens.size,
        extension: services.relay.view(),
        ...(manager.mode === 'pool' ? { pool: manager.poolView(ctx) } : {}),
        journal: services.journal.state(),
        profile: services.profiles.current ?? null,
        leases: manager.leases.list(claimFor(ctx, manifest.daemon.status)),
        paused: manager.pauses.list(),
        scheduler: manager.queueStats,
        handoffs: services.handoff.list(),
      };
    },
    async restart(_input, ctx) {
      const carried = await prepareRestart(services, ctx);
      return { restarting: true, pid: process.pid, ...carried, newPid: null };
    },
    async stop(input, ctx) {
      if (input.ifAlone) {
        // asked by an agent's server as its agent leaves: it no longer keeps the daemon for anyone
        const caller = callerOf(ctx);
        services.callers.left(caller);
        const others = services.callers.others(caller);
        // a running hand-off has a person at the browser: theirs until it ends (then see HandoffDeps.onEnded in daemon.ts)
        if (services.handoff.list().length) others.push(HANDOFF_CALLER);
        if (others.length) {
          services.log.info('daemon.stop_declined', { by: caller, others });
          // the agent that started it goes; the others' servers ask again when they go
          services.leftToAgents();
          return { stopping: false, others };
        }
        const effect = manager.closingEffect();
        services.requestStop();
        return { stopping: true, others, ...effect };
      }
      const effect = manager.closingEffect();
      services.requestStop();
      return { stopping: true, ...effect };
    },
  };
}
