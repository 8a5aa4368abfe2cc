import type { Handlers } from '@argus/protocol';
import type { Services } from '../services.js';

export function profileHandlers(services: Services): Handlers['profile'] {
  const { profiles } = services;
  return {
    async list() {
      return { dir: profiles.dir, current: profiles.current ?? null, profiles: profiles.list() };
    },
    async rm(input) {
      return profiles.remove(input.name);
    },
  };
}
