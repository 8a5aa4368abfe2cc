import { ArgusError, DEFAULT_SHARE_COMMANDS, type Handlers } from '@argus/protocol';
import { generateToken, isLoopbackHostname, tokenId } from '@argus/security';
import { resolveShareCommands } from '../client-guard.js';
import type { Services } from '../services.js';

/** Most tokens the daemon holds; they live in memory and die with it. */
const MAX_TOKENS = 256;
const UNIT_MS = { s: 1_000, m: 60_000, h: 3_600_000, d: 86_400_000 } as const;
const MAX_TTL_MS = 30 * UNIT_MS.d;

function ttlMs(ttl: string): number {
  const ms = Number(ttl.slice(0, -1)) * UNIT_MS[ttl.slice(-1) as keyof typeof UNIT_MS];
  if (!(ms > 0) || ms > MAX_TTL_MS)
    throw new ArgusError('invalid_input', `--ttl ${ttl} is out of range: give between 1s and 30d (e.g. 30m, 24h, 7d).`);
  return ms;
}

/** `host:port` (IPv6 in brackets) for --listen. */
function parseListen(listen: string): { host: string; port: number } {
  const match = /^(?:\[([^\]]+)\]|([^:[\]]+)):(\d{1,5})$/.exec(listen.trim());
  const port = Number(match?.[3]);
  if (!match || port > 65_535)
    throw new ArgusError(
      'invalid_input',
      `--listen ${listen} is not host:port. Use e.g. 127.0.0.1:9444 (or 0.0.0.0:9444 --i-know).`,
    );
  return { host: (match[1] ?? match[2])!, port };
}

export function tokenHandlers(services: Services): Handlers['token'] {
  const { shares, tunnel } = services;

  /** The tunnel listener for a share: where asked, else where it runs, else where it ran last, else loopback on a free port. */
  async function openTunnel(listen: string | undefined, iKnow: boolean): Promise<string> {
    const wanted = listen ? parseListen(listen) : (tunnel.address ?? shares.tunnel ?? { host: '127.0.0.1', port: 0 });
    if (!isLoopbackHostname(wanted.host) && !iKnow) {
      throw new ArgusError(
        'invalid_input',
        `The tunnel would listen on ${wanted.host}, reachable from other machines, with the token as the only protection. Pass --i-know to confirm, or use an SSH tunnel to 127.0.0.1 (docs/REMOTE.md).`,
      );
    }
    const address = await tunnel.listen(wanted.host, wanted.port).catch((error: unknown) => {
      throw new ArgusError(
        'invalid_input',
        `The tunnel cannot listen on ${wanted.host}:${wanted.port}: ${(error as Error).message}. Pick another --listen.`,
      );
    });
    if (shares.tunnel?.host !== address.host || shares.tunnel.port !== address.port) shares.tunnel = address;
    return tunnel.url!;
  }

  return {
    async create(input) {
      if (services.tokens.size >= MAX_TOKENS) {
        throw new ArgusError(
          'invalid_input',
          `The daemon already holds ${MAX_TOKENS} tokens. Restart it (\`argus stop\`) to drop the minted ones.`,
        );
      }
      const token = generateToken();
      services.tokens.set(token, [input.scope]);
      // the logger redacts every known token; never log the value itself
      services.log.info('token.created', { scope: input.scope, tokens: services.tokens.size });
      return { token, scope: input.scope, tokens: services.tokens.size };
    },

    async share(input) {
      const commands = input.commands ? resolveShareCommands(input.commands) : [...DEFAULT_SHARE_COMMANDS];
      const lifetime = ttlMs(input.ttl);
      const url = await openTunnel(input.listen, input.iKnow);
      const minted = shares.mint({ name: input.name, scope: input.scope, commands, ttlMs: lifetime });
      if (!minted)
        throw new ArgusError(
          'invalid_input',
          'The daemon already holds 256 live shared tokens. Revoke some (`argus tokens`, `argus token revoke <id>`).',
        );
      services.log.info('token.shared', {
        token: minted.token.id,
        client: input.name,
        scope: input.scope,
        commands: commands.length,
        expiresAt: minted.token.expiresAt,
      });
      return {
        token: minted.secret,
        id: minted.token.id,
        name: input.name,
        scope: input.scope,
        commands,
        expiresAt: minted.token.expiresAt,
        url,
      };
    },

    async list() {
      const local = [...services.tokens].map(([token, scopes], index) => ({
        id: tokenId(token),
        // the first entry is the daemon's own token (inserted at start-up)
        kind: index === 0 ? ('root' as const) : ('local' as const),
        name: null,
        scope: scopes.includes('admin')
          ? ('admin' as const)
          : scopes.includes('write')
            ? ('write' as const)
            : ('read' as const),
        commands: null,
        createdAt: null,
        expiresAt: null,
        lastUsedAt: null,
        expired: false,
      }));
      const shared = shares.list().map((token) => ({
        id: token.id,
        kind: 'shared' as const,
        name: token.name,
        scope: token.scope,
        commands: token.commands,
        createdAt: token.createdAt,
        expiresAt: token.expiresAt,
        lastUsedAt: token.lastUsedAt,
        expired: shares.isExpired(token),
      }));
      return { tokens: [...local, ...shared], tunnel: tunnel.url };
    },

    async revoke(input) {
      const prefix = input.id.toLowerCase();
      const local = [...services.tokens.keys()].slice(1).filter((token) => tokenId(token).startsWith(prefix));
      const shared = shares.find(prefix);
      const root = [...services.tokens.keys()][0];
      if (root && tokenId(root).startsWith(prefix) && !local.length && !shared.length) {
        throw new ArgusError(
          'invalid_input',
          "That is the daemon's own token; it cannot be revoked. `argus stop` replaces it on the next start.",
        );
      }
      if (local.length + shared.length > 1)
        throw new ArgusError('invalid_input', `Token id ${input.id} is ambiguous. Give more of it (\`argus tokens\`).`);
      if (local[0]) {
        services.tokens.delete(local[0]);
        services.log.info('token.revoked', { token: tokenId(local[0]), kind: 'local' });
        return { revoked: tokenId(local[0]), kind: 'local' as const, closedTabs: 0 };
      }
      const token = shared[0];
      if (!token)
        throw new ArgusError('invalid_input', `No token with id ${input.id}. Run \`argus tokens\` to list them.`);
      shares.revoke(token);
      const closedTabs = await services.manager.closeOwner(token.id);
      services.log.info('token.revoked', { token: token.id, kind: 'shared', client: token.name, closedTabs });
      return { revoked: token.id, kind: 'shared' as const, closedTabs };
    },
  };
}
