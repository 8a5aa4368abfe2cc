import { z } from 'zod';
import { defineCommand } from '../define.js';

/** A persistent profile's name: also its directory name under `<state dir>/profiles/`. */
export const ProfileName = z
  .string()
  .regex(/^[A-Za-z0-9][\w.-]{0,63}$/, 'letters, digits, `.`, `_` and `-`, starting with a letter or digit')
  .describe('Profile name (letters, digits, . _ -)');

const ProfileInfo = z.object({
  name: z.string(),
  path: z.string(),
  bytes: z.number().describe('Size on disk'),
  lastUsed: z.string().nullable().describe('When a browser last ran with it (ISO 8601)'),
  inUse: z.boolean().describe("The daemon's browser runs with it now"),
});

export const profileCommands = {
  list: defineCommand({
    name: 'profile.list',
    cli: { verb: 'profiles', examples: ['argus profiles', 'argus profiles --json'] },
    tool: false,
    kind: 'query',
    scope: 'admin',
    summary:
      'List the persistent browser profiles (`--profile NAME` / ARGUS_PROFILE): name, size, last used. Logins in them survive restarts.',
    input: () => z.object({}),
    output: () =>
      z.object({
        dir: z.string(),
        current: z.string().nullable().describe("The profile the daemon's browser uses (null: a fresh temporary one)"),
        profiles: z.array(ProfileInfo),
      }),
  }),
  rm: defineCommand({
    name: 'profile.rm',
    cli: { verb: 'profile rm', positionals: ['name'], examples: ['argus profile rm work'] },
    tool: false,
    kind: 'mutation',
    scope: 'admin',
    summary: 'Delete a persistent profile (its cookies, storage and history). Refused while the browser uses it.',
    input: () => z.object({ name: ProfileName }),
    output: () => z.object({ removed: z.string(), bytes: z.number() }),
  }),
};
