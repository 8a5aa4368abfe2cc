import type { Handlers } from '@argus/protocol';
import { eventStream } from '../event-stream.js';
import type { PendingView } from '../policy/approvals.js';
import type { Services } from '../services.js';

export function approvalsHandlers(services: Services): Handlers['approvals'] {
  const { approvals } = services;
  return {
    list: async () => ({ pending: approvals.list() }),
    async *watch(_input, ctx) {
      yield* eventStream<PendingView>({
        signal: ctx.signal,
        // those already waiting first, then each new one as it starts waiting: none falls in between
        start: (push) => {
          for (const pending of approvals.list()) push(pending);
          return approvals.onRequest(push);
        },
      });
    },
    approve: async (input) => approvals.decide(input.id, 'approved'),
    deny: async (input) => approvals.decide(input.id, 'denied'),
  };
}
