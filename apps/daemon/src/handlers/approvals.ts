import type { Handlers } from '@argus/protocol';
import type { Services } from '../services.js';

export function approvalsHandlers(services: Services): Handlers['approvals'] {
  const { approvals } = services;
  return {
    list: async () => ({ pending: approvals.list() }),
    approve: async (input) => approvals.decide(input.id, 'approved'),
    deny: async (input) => approvals.decide(input.id, 'denied'),
  };
}
