import { describe, expect, it } from 'vitest';
import { ArgusError, ERROR_CODES, isErrorCode, isRetryable, trpcCodeFor } from './errors.js';
import { toArgusErrorData } from './router.js';
import { TRPCError } from '@trpc/server';

describe('error table', () => {
  it('has the codes the contract promises', () => {
    for (const code of [
      'invalid_input',
      'ref_not_found',
      'ref_stale',
      'element_not_interactable',
      'navigation_failed',
      'timeout',
      'target_closed',
      'no_active_tab',
      'browser_not_found',
      'browser_crashed',
      'unauthorized',
      'daemon_unreachable',
      'tab_hidden',
      'frame_chosen',
    ]) {
      expect(isErrorCode(code), code).toBe(true);
    }
    expect(trpcCodeFor('unauthorized')).toBe('UNAUTHORIZED');
    expect(trpcCodeFor('invalid_input')).toBe('BAD_REQUEST');
    // a hidden tab is a state the caller can change (`argus tab <id>`), not a missing feature
    expect(trpcCodeFor('tab_hidden')).toBe('PRECONDITION_FAILED');
    expect(isRetryable(new ArgusError('tab_hidden', 'Tab 3f2a is a background tab'))).toBe(false);
    // so is a frame chosen while a capture of the whole top document is asked for (`argus frame main`)
    expect(trpcCodeFor('frame_chosen')).toBe('PRECONDITION_FAILED');
    expect(isRetryable(new ArgusError('frame_chosen', '`argus pdf` prints the whole top document'))).toBe(false);
    expect(Object.keys(ERROR_CODES).length).toBeGreaterThan(12);
  });

  it('round-trips ArgusError through its data form', () => {
    const error = new ArgusError('ref_stale', 'Ref e1 is stale', { details: { ref: 'e1' } });
    const back = ArgusError.fromData(error.toData());
    expect(back).toBeInstanceOf(ArgusError);
    expect(back.toData()).toEqual({ code: 'ref_stale', message: 'Ref e1 is stale', details: { ref: 'e1' } });
  });
});

describe('toArgusErrorData', () => {
  it('keeps ArgusErrors, explains zod failures, hides nothing unexpected as success', () => {
    expect(
      toArgusErrorData(new TRPCError({ code: 'CONFLICT', cause: new ArgusError('ref_stale', 'stale') })).code,
    ).toBe('ref_stale');
    const zodLike = { issues: [{ path: ['url'], message: 'bad url' }] };
    const data = toArgusErrorData(
      new TRPCError({ code: 'BAD_REQUEST', cause: zodLike as unknown as Error }),
      'page.goto',
    );
    expect(data.code).toBe('invalid_input');
    expect(data.message).toMatch(/argus goto.*url: bad url/);
    expect(toArgusErrorData(new Error('boom')).code).toBe('internal');
  });
});

describe('buildRouter typing', () => {
  it('refuses (at compile time) a handler map that misses a command', async () => {
    const { buildRouter } = await import('./router.js');
    const build = () =>
      // @ts-expect-error -- every manifest command needs a handler: an empty map must not compile
      buildRouter({}, { authorize: () => undefined });
    expect(build).toThrow(/No handler for/);
  });
});

describe('input validation', () => {
  it('rejects unknown fields instead of ignoring them', async () => {
    const { buildRouter } = await import('./router.js');
    const { manifest } = await import('./manifest.js');
    // every handler answers; only validation is under test here
    const handlers = Object.fromEntries(
      Object.entries(manifest).map(([ns, group]) => [
        ns,
        Object.fromEntries(Object.keys(group).map((key) => [key, async () => ({ url: 'u', title: 't' })])),
      ]),
    );
    const seen: Array<{ command: string; input: unknown; client: string | undefined }> = [];
    const router = buildRouter(handlers as never, {
      authorize: (ctx, command, input) => {
        seen.push({ command: command.name, input, client: ctx.client });
        if (ctx.scopes.includes('read') && command.scope !== 'read') throw new ArgusError('forbidden_scope', 'no');
      },
    });
    const caller = router.createCaller({ scopes: ['admin'], client: 'test' });
    await expect(caller.page.url({ tab: 'x', tabb: 'y' } as never)).rejects.toMatchObject({ code: 'BAD_REQUEST' });
    // invalid input never reaches the seam; valid input reaches it parsed (defaults filled)
    expect(seen).toEqual([]);
    await expect(caller.page.url({})).resolves.toEqual({ url: 'u', title: 't' });
    expect(seen).toEqual([{ command: 'page.url', input: {}, client: 'test' }]);
    // the seam's refusal is the call's error
    await expect(router.createCaller({ scopes: ['read'] }).page.goto({ url: 'https://a.test' })).rejects.toMatchObject({
      code: 'FORBIDDEN',
    });
    expect(seen.at(-1)?.command).toBe('page.goto');
  });
});
