import type { Handlers } from '@argus/protocol';
import type { Services } from '../services.js';

export function handoffHandlers(services: Services): Handlers['handoff'] {
  return {
    start: (input, ctx) => services.handoff.start(input, ctx),
    resume: () => services.handoff.resume(),
  };
}
