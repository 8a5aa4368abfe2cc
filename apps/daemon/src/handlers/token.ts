import { ArgusError, type Handlers } from '@argus/protocol';
import { generateToken } from '@argus/security';
import type { Services } from '../services.js';

/** Most tokens the daemon holds; they live in memory and die with it. */
const MAX_TOKENS = 256;

export function tokenHandlers(services: Services): Handlers['token'] {
  return {
    async create(input) {
      if (services.tokens.size >= MAX_TOKENS) {
        throw new ArgusError('invalid_input', `The daemon already holds ${MAX_TOKENS} tokens. Restart it (\`argus stop\`) to drop the minted ones.`);
      }
      const token = generateToken();
      services.tokens.set(token, [input.scope]);
      // the logger redacts every known token; never log the value itself
      services.log.info('token.created', { scope: input.scope, tokens: services.tokens.size });
      return { token, scope: input.scope, tokens: services.tokens.size };
    },
  };
}
