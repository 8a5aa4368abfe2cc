import type * as CanvasLib from '@argus/canvas';

/*
 * The design canvas (@argus/canvas and Yjs under it) loads on the first canvas command, not at the
 * daemon's start: about a tenth of the code a daemon would otherwise compile and run while its
 * Chromium starts beside it on the same cores (issue 16). Only the canvas handlers use it; they load
 * it before their body runs (withCanvas), so the store, the previews and the sync feed, which only
 * ever hold sessions those handlers made, use the loaded library synchronously (canvas()).
 */

let lib: typeof CanvasLib | undefined;
let loading: Promise<typeof CanvasLib> | undefined;

/** Loads the canvas library once; every later call gets the same module. */
export function loadCanvas(): Promise<typeof CanvasLib> {
  loading ??= import('@argus/canvas').then((module) => (lib = module));
  return loading;
}

/** The loaded canvas library. Only after loadCanvas() resolved: a programming error otherwise. */
export function canvas(): typeof CanvasLib {
  if (!lib) throw new Error('@argus/canvas used before loadCanvas() resolved');
  return lib;
}

type Handler = (...args: never[]) => unknown;

/**
 * The canvas handlers, each loading the library before its body runs (a stream before its first
 * item): `commands` says which ones are streams.
 */
export function withCanvas<H extends Record<string, Handler>>(
  handlers: H,
  commands: Readonly<Record<string, { kind: string }>>,
): H {
  const wrapped: Record<string, Handler> = {};
  for (const [key, handler] of Object.entries(handlers) as Array<[string, (...args: unknown[]) => unknown]>) {
    wrapped[key] =
      commands[key]?.kind === 'subscription'
        ? async function* (...args: unknown[]) {
            await loadCanvas();
            yield* handler(...args) as AsyncIterable<unknown>;
          }
        : async (...args: unknown[]) => {
            await loadCanvas();
            return handler(...args);
          };
  }
  return wrapped as H;
}
