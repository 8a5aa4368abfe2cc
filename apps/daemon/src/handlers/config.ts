import type { Handlers } from '@argus/protocol';
import { getPath } from '@argus/protocol/config';
import type { Services } from '../services.js';

export function configHandlers(services: Services): Handlers['config'] {
  const { config } = services;
  return {
    get: async (input) => config.entry(input.key),
    list: async () => ({ files: config.files, entries: config.entries() }),
    set: async (input) => {
      const written = config.write(input.key, input.value, { user: input.user, unset: input.unset });
      return {
        key: input.key,
        // the stored and effective values of a secret are shown as `config get` shows them (masked)
        value: /apiKey$/i.test(input.key) && written.value !== null ? config.entry(input.key).value : written.value,
        file: written.file,
        effective: /apiKey$/i.test(input.key)
          ? config.entry(input.key).value
          : (getPath(config.current() as Record<string, unknown>, input.key) ?? null),
        restartNeeded: !input.key.startsWith('policy.'),
      };
    },
  };
}
