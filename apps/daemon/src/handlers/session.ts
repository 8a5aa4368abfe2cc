import { ArgusError, DEFAULT_POOL_MAX_SESSIONS, type Handlers } from '@argus/protocol';
import { isExtensionOrigin, isLoopbackHostname, normalizePairingCode } from '@argus/security';
import type { SessionMode } from '../browser-manager.js';
import type { PoolOptions } from '../pool/browser-pool.js';
import { displayUrl } from '../pool/placement.js';
import type { Services } from '../services.js';

/**
 * Parses a CDP URL and holds the local-only default: a browser on another machine is reached only
 * with an explicit opt-in (`--allow-remote`, or ARGUS_CDP_ALLOW_REMOTE=1 for ARGUS_CDP_URL).
 */
export function cdpUrlOf(raw: string, allowRemote: boolean): string {
  let url: URL;
  try {
    url = new URL(/^[a-z][a-z0-9+.-]*:\/\//i.test(raw) ? raw : `http://${raw}`);
  } catch {
    throw new ArgusError(
      'invalid_input',
      `"${raw}" is not a CDP URL. Pass http://host:port (Chrome started with --remote-debugging-port) or a ws:// DevTools URL.`,
    );
  }
  if (!['http:', 'https:', 'ws:', 'wss:'].includes(url.protocol)) {
    throw new ArgusError('invalid_input', `A CDP URL must be http(s) or ws(s), not ${url.protocol}`);
  }
  if (!allowRemote && !isLoopbackHostname(url.hostname)) {
    throw new ArgusError(
      'remote_forbidden',
      `${url.host} is not this machine: Argus connects only to a local Chrome (127.0.0.1, localhost, [::1]) by default. If you mean to drive a browser on another host, pass --allow-remote (ARGUS_CDP_ALLOW_REMOTE=1 for ARGUS_CDP_URL).`,
      { details: { host: url.hostname } },
    );
  }
  return url.href;
}

/** Pool options from `--pool` / the config: every URL checked like `--cdp`'s, duplicates refused. */
export function poolOptionsOf(
  urls: readonly string[],
  allowRemote: boolean,
  settings: {
    maxSessions?: number | undefined;
    healthIntervalMs?: number | undefined;
    restoreState?: boolean | undefined;
  },
): PoolOptions {
  // `--pool a,b` and a config list alike
  const endpoints = urls
    .flatMap((url) => url.split(','))
    .map((url) => url.trim())
    .filter(Boolean)
    .map((url) => cdpUrlOf(url, allowRemote));
  if (!endpoints.length)
    throw new ArgusError('invalid_input', 'Name at least one endpoint: `argus connect --pool URL,...`.');
  const twice = endpoints.find((url, index) => endpoints.indexOf(url) !== index);
  if (twice) throw new ArgusError('invalid_input', `${twice} is named twice in the pool; name each endpoint once.`);
  return {
    endpoints,
    maxSessions: settings.maxSessions ?? DEFAULT_POOL_MAX_SESSIONS,
    healthIntervalMs: settings.healthIntervalMs ?? 5_000,
    restoreState: settings.restoreState ?? false,
  };
}

export function sessionHandlers(services: Services): Handlers['session'] {
  const { manager, relay } = services;
  return {
    async disconnect() {
      const mode = manager.mode;
      const action = await manager.detach();
      if (action !== 'none') services.log.info('session.disconnected', { mode, action });
      return { mode, action };
    },
    async connect(input, ctx) {
      const chosen = [
        input.extension === true,
        input.cdp !== undefined,
        input.managed === true,
        input.pool !== undefined,
      ].filter(Boolean).length;
      if (chosen > 1)
        throw new ArgusError('invalid_input', 'Pick one of --extension, --cdp <url>, --pool <url,...> or --managed.');
      if (input.allowRemote && input.cdp === undefined && input.pool === undefined)
        throw new ArgusError('invalid_input', '--allow-remote goes with --cdp <url> or --pool <url,...>.');
      if ((input.maxSessions !== undefined || input.restoreState !== undefined) && input.pool === undefined)
        throw new ArgusError('invalid_input', '--max-sessions and --restore-state go with --pool <url,...>.');
      const previousMode = manager.mode;
      let mode: SessionMode = previousMode;
      let cdpUrl: string | undefined;
      let pool: PoolOptions | undefined;
      if (input.extension) mode = 'extension';
      else if (input.cdp !== undefined) {
        mode = 'connect';
        cdpUrl = cdpUrlOf(input.cdp, input.allowRemote === true);
      } else if (input.pool !== undefined) {
        mode = 'pool';
        const settings = services.config.current().pool;
        pool = poolOptionsOf(input.pool, input.allowRemote === true || settings?.allowRemote === true, {
          maxSessions: input.maxSessions ?? settings?.maxSessionsPerEndpoint,
          healthIntervalMs: settings?.healthIntervalMs,
          restoreState: input.restoreState ?? settings?.restoreState,
        });
      } else if (input.managed) mode = 'managed';
      if (input.relayPort !== undefined && mode !== 'extension')
        throw new ArgusError(
          'invalid_input',
          '--relay-port goes with --extension (the relay serves only extension mode).',
        );
      // the relay must listen before the extension can find it
      if (mode === 'extension') await relay.ensure(input.relayPort);
      const switched = chosen === 1 && (mode !== previousMode || mode === 'connect' || mode === 'pool');
      if (switched) {
        await manager.switchMode(mode, cdpUrl, pool);
        services.log.info('session.switched', {
          from: previousMode,
          to: mode,
          ...(cdpUrl ? { cdpUrl: displayUrl(cdpUrl) } : {}),
          ...(pool ? { endpoints: pool.endpoints.length } : {}),
        });
      }
      // the answer says at once which endpoints answer Browser.getVersion
      if (mode === 'pool') await manager.checkPool();
      if (mode === 'extension' && input.timeoutMs) await relay.waitForExtension(input.timeoutMs);
      return {
        mode: manager.mode,
        previousMode,
        switched,
        // shown as the pool's endpoints are: a remote browser's `?token=` is a secret the caller already has
        cdpUrl: manager.mode === 'connect' && cdpUrl ? displayUrl(cdpUrl) : null,
        pool: manager.poolView(ctx) ?? null,
        extension: relay.view(),
      };
    },
    async pair(input) {
      const server = await relay.ensure();
      let approved: string | null = null;
      if (input.code !== undefined) {
        const code = normalizePairingCode(input.code);
        if (!server.approvePairing(code)) {
          const pending = server.pendingPairings().map((request) => request.code);
          throw new ArgusError(
            'invalid_input',
            `No pending pairing request with code ${code}. ${pending.length ? `Pending: ${pending.join(', ')}.` : 'None is pending: open the extension popup and press Connect (codes expire after 5 minutes).'}`,
          );
        }
        approved = code;
        services.log.info('relay.pairing_approved', { code });
      }
      const now = Date.now();
      const pending = server.pendingPairings().map((request) => ({
        code: request.code,
        nodeId: request.nodeId,
        name: request.name ?? null,
        origin: request.origin ?? null,
        fromExtension: isExtensionOrigin(request.origin),
        fingerprint: request.fingerprint,
        expiresInMs: Math.max(0, request.expiresAt - now),
      }));
      return { approved, pending, extension: relay.view() };
    },
  };
}
