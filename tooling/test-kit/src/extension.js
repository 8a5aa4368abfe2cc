/**
 * The Argus extension in a test's own Chromium: where its build is, the flags that load it, and how
 * to reach its service worker over CDP. Launching and connecting stay with `@argus/cdp`
 * (`launchChrome`, `connectCri`), the repo's one launcher and CDP client; the functions here take its
 * `Transport` (anything with `send(method, params, sessionId)`), so the test kit needs no dependency
 * on the packages it tests.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The built unpacked extension (`pnpm --filter @argus/extension build` writes it). */
export const EXTENSION_DIR = fileURLToPath(new URL('../../../apps/extension/dist', import.meta.url));

/**
 * Chromium flags that load the unpacked extension at `dir` and no other; throws when it is not built.
 * @param {string} [dir]
 * @returns {string[]}
 */
export function extensionFlags(dir = EXTENSION_DIR) {
  if (!existsSync(join(dir, 'manifest.json')))
    throw new Error(`No built extension in ${dir}: run pnpm --filter @argus/extension build first`);
  return [`--load-extension=${dir}`, `--disable-extensions-except=${dir}`];
}

/**
 * Resolves once `check()` is true; throws `timed out waiting for <what>` after `timeoutMs`.
 * @param {() => boolean | Promise<boolean>} check
 * @param {number} [timeoutMs]
 * @param {string} [what]
 */
export async function waitUntil(check, timeoutMs = 15_000, what = 'condition') {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await check()) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`timed out waiting for ${what}`);
}

/** @typedef {{ send(method: string, params: object | undefined, sessionId: string | undefined): Promise<unknown> }} CdpSender */

/**
 * The extension's service worker target (it registers a moment after the browser starts).
 * @param {CdpSender} cdp a browser-level connection
 * @returns {Promise<{ targetId: string, url: string, extensionId: string }>}
 */
export async function findServiceWorker(cdp) {
  /** @type {{ targetId: string, url: string } | undefined} */
  let found;
  await waitUntil(
    async () => {
      const { targetInfos } = /** @type {{ targetInfos: Array<{ targetId: string, type: string, url: string }> }} */ (
        await cdp.send('Target.getTargets', {}, undefined)
      );
      found = targetInfos.find(
        (target) => target.type === 'service_worker' && target.url.startsWith('chrome-extension://'),
      );
      return found !== undefined;
    },
    10_000,
    'the extension service worker',
  );
  if (!found) throw new Error('the extension service worker never registered');
  return { targetId: found.targetId, url: found.url, extensionId: new URL(found.url).host };
}

/**
 * Evaluates an expression (awaited) in the extension's service worker and returns its value, passed
 * through JSON (`undefined` becomes `null`).
 * @param {CdpSender} cdp a browser-level connection
 * @param {string} targetId the worker's target (findServiceWorker)
 * @param {string} expression
 * @returns {Promise<unknown>}
 */
export async function evaluateInWorker(cdp, targetId, expression) {
  const { sessionId } = /** @type {{ sessionId: string }} */ (
    await cdp.send('Target.attachToTarget', { targetId, flatten: true }, undefined)
  );
  try {
    // the worker's extension context (with chrome.*) shows up a moment after attach
    await waitUntil(
      async () => {
        const probe = /** @type {{ result: { value?: unknown } }} */ (
          await cdp.send('Runtime.evaluate', { expression: 'typeof chrome?.storage?.local' }, sessionId)
        );
        return probe.result.value === 'object';
      },
      10_000,
      'chrome.storage in the service worker',
    );
    const response = /** @type {{ result: { value?: unknown }, exceptionDetails?: unknown }} */ (
      await cdp.send(
        'Runtime.evaluate',
        {
          expression: `Promise.resolve(${expression}).then((value) => JSON.stringify(value ?? null))`,
          awaitPromise: true,
          returnByValue: true,
        },
        sessionId,
      )
    );
    if (response.exceptionDetails)
      throw new Error(`worker evaluation failed: ${JSON.stringify(response.exceptionDetails)}`);
    return JSON.parse(String(response.result.value));
  } finally {
    await cdp.send('Target.detachFromTarget', { sessionId }, undefined);
  }
}

/**
 * Pairs the extension in a test's browser with a daemon started with `ARGUS_RELAY_PORT=0` and
 * `ARGUS_RELAY_LAUNCH_TOKEN=<launchToken>`, the way a daemon that launched Chrome would: switch the
 * daemon to extension mode (it starts its relay), point the extension at that relay with the launch
 * token (approved at once), then wait until it is connected. Returns the relay URL.
 * @param {{ session: { connect: { mutate(input: { extension: true, timeoutMs?: number }): Promise<{ extension: { relayUrl: string | null, connected: boolean } }> } } }} client the daemon's typed client
 * @param {(expression: string) => Promise<unknown>} evalInWorker evaluates in the extension's service worker
 * @param {string} launchToken
 * @returns {Promise<string>}
 */
export async function pairExtension(client, evalInWorker, launchToken) {
  const started = await client.session.connect.mutate({ extension: true });
  const relayUrl = started.extension.relayUrl;
  if (!relayUrl) throw new Error('the daemon started no extension relay');
  await evalInWorker(`chrome.storage.local.set(${JSON.stringify({ enabled: true, relayUrl, launchToken })})`);
  const connected = await client.session.connect.mutate({ extension: true, timeoutMs: 15_000 });
  if (!connected.extension.connected) throw new Error(`the extension did not connect to ${relayUrl} within 15 s`);
  return relayUrl;
}
