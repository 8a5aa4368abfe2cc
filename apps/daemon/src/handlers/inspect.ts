import { ArgusError, type Handlers } from '@argus/protocol';
import { hasScope } from '@argus/security';
import {
  ATTRIBUTES,
  COMPUTED_STYLE,
  ELEMENT_STATE,
  PERF,
  STORAGE_READ,
  STORAGE_WRITE,
  parseRef,
} from '@argus/snapshot';
import { withDialogs } from '../capture-entries.js';
import { elementStyles } from '../css-rules.js';
import { inDocument } from '../frame-scope.js';
import { callOnElement, evaluateInPage } from '../page-eval.js';
import type { Services } from '../services.js';

const kebab = (name: string) => (name.startsWith('--') ? name : name.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`));

function noStorage(origin: string, reason: string): ArgusError {
  return new ArgusError(
    'unsupported',
    `This page (origin ${origin}) has no web storage: ${reason}. Navigate to an http(s) page first.`,
    { details: { origin } },
  );
}

export function inspectHandlers(services: Services): Handlers['inspect'] {
  const { manager } = services;
  // every read of the page carries the dialogs since the previous reply (withDialogs): an agent often
  // reads right after an action, and a confirm a timer opened after it is news
  return {
    css: (input) =>
      manager.onTab(input.tab, async (page) => {
        const handle = await manager.engine(page).resolve(input.target);
        const property = kebab(input.property);
        const value = await callOnElement(page, handle, COMPUTED_STYLE, property);
        return withDialogs(page, { element: handle.label, property, value: value.trim() });
      }),
    attrs: (input) =>
      manager.onTab(input.tab, async (page) => {
        const handle = await manager.engine(page).resolve(input.target);
        const { tag, attributes } = await callOnElement(page, handle, ATTRIBUTES);
        return withDialogs(page, { element: handle.label, tag, attributes });
      }),
    is: (input) =>
      manager.onTab(input.tab, async (page) => {
        let handle;
        try {
          handle = await manager.engine(page).resolve(input.target);
        } catch (error) {
          // a selector that matches nothing is simply not visible; refs keep failing loudly (stale)
          const presence = input.state === 'visible' || input.state === 'hidden';
          if (
            presence &&
            !parseRef(input.target) &&
            error instanceof ArgusError &&
            error.code === 'element_not_found'
          ) {
            return withDialogs(page, {
              element: `(nothing matches "${input.target}")`,
              state: input.state,
              value: input.state === 'hidden',
            });
          }
          throw error;
        }
        const value = await callOnElement(page, handle, ELEMENT_STATE, input.state);
        if (typeof value === 'string') {
          throw new ArgusError(
            'invalid_input',
            `${handle.label} is not a checkbox, radio, switch or option, so it has no checked state. Use \`argus is <target> visible\` or \`argus attrs <target>\` instead.`,
            {
              details: { element: handle.label, state: input.state },
            },
          );
        }
        return withDialogs(page, { element: handle.label, state: input.state, value });
      }),
    cookies: (input, ctx) =>
      manager.onTab(input.tab, async (page) => {
        const urls = [
          ...new Set([page.url, ...page.frames.all().map((frame) => frame.url), ...(input.url ? [input.url] : [])]),
        ].filter((url) => /^https?:/i.test(url));
        if (!urls.length) return withDialogs(page, { urls: [], cookies: [] });
        const { cookies } = await page.session.send('Network.getCookies', { urls });
        const reveal = hasScope(ctx.scopes, 'admin');
        return withDialogs(page, {
          urls,
          cookies: cookies
            .filter((cookie) => input.name === undefined || cookie.name === input.name)
            .map((cookie) => ({
              name: cookie.name,
              value: cookie.httpOnly && !reveal ? null : cookie.value,
              domain: cookie.domain,
              path: cookie.path,
              expires: cookie.session || cookie.expires < 0 ? null : new Date(cookie.expires * 1000).toISOString(),
              httpOnly: cookie.httpOnly,
              secure: cookie.secure,
              sameSite: cookie.sameSite ?? null,
              size: cookie.size,
            })),
        });
      }),
    // storage and perf are of the document commands run in: the frame chosen with `argus frame`, else the top one
    storage: (input) =>
      manager.onTab(input.tab, async (page) => {
        const result = await inDocument(manager, page, 'isolated', (where) =>
          evaluateInPage(page, STORAGE_READ, [input.key ?? '', input.maxChars], where),
        );
        if (result.error) throw noStorage(result.origin, result.error);
        return withDialogs(page, {
          origin: result.origin,
          local: result.local ?? {},
          session: result.session ?? {},
          truncated: result.truncated ?? false,
        });
      }),
    storageSet: (input) =>
      manager.onTab(input.tab, async (page) => {
        const area = input.area;
        const result = await inDocument(manager, page, 'isolated', (where) =>
          evaluateInPage(page, STORAGE_WRITE, [area, input.key, input.value], where),
        );
        if (result.quota)
          throw new ArgusError(
            'payload_too_large',
            `The ${area}Storage quota of ${result.origin} is full; the value (${input.value.length} characters) was not stored.`,
          );
        if (result.error) throw noStorage(result.origin, result.error);
        return { origin: result.origin, area, key: input.key, bytes: Buffer.byteLength(input.value) };
      }),
    perf: (input) =>
      manager.onTab(input.tab, async (page) =>
        withDialogs(
          page,
          await inDocument(manager, page, 'isolated', (where) => evaluateInPage(page, PERF, [], where)),
        ),
      ),
    element: (input) =>
      manager.onTab(input.tab, async (page) => {
        const handle = await manager.engine(page).resolve(input.target);
        const styles = await elementStyles(handle, { userAgent: input.userAgent });
        return withDialogs(page, { element: handle.label, ...styles });
      }),
  };
}
