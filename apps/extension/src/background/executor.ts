import {
  COMMANDS,
  WIRE_VERSION,
  isCommandName,
  type CommandFrame,
  type CommandMap,
  type CommandName,
  type ResultFrame,
} from '@argus/relay/wire';
import type { DebuggerSessions } from './debugger-sessions.js';
import { CommandFailure } from './failure.js';
import type { Tabs } from './tabs.js';

type Handlers = { [C in CommandName]: (params: CommandMap[C]['params']) => Promise<CommandMap[C]['result']> };

/** Runs one relay command against chrome.* APIs. Params are validated here, at the boundary. */
export function createExecutor(deps: { tabs: Tabs; sessions: DebuggerSessions; nodeId: () => string }) {
  const { tabs, sessions } = deps;
  const handlers: Handlers = {
    'node.status': async () => ({
      nodeId: deps.nodeId(),
      extensionVersion: chrome.runtime.getManifest().version,
      userAgent: navigator.userAgent,
      tabs: await tabs.count,
      sessions: sessions.count,
    }),
    'tabs.list': async () => ({ tabs: await tabs.list() }),
    'tabs.open': async (p) => ({ tab: await tabs.open(p.url ?? 'about:blank', p.active) }),
    'tabs.close': async (p) => ({ closed: await tabs.close(p.tabId, p.force) }),
    'tabs.activate': async (p) => {
      await tabs.activate(p.tabId);
      return {};
    },
    'debugger.attach': async (p) => {
      await tabs.get(p.tabId); // fail with tab_not_found before touching the debugger
      const sessionId = await sessions.attach(p.tabId);
      return { sessionId, tab: await tabs.get(p.tabId) };
    },
    'debugger.detach': async (p) => {
      await sessions.detach(p.sessionId);
      return {};
    },
    'cdp.send': async (p) => ({ result: await sessions.send(p.sessionId, p.method, p.params) }),
  };

  return async function execute(frame: CommandFrame): Promise<ResultFrame> {
    try {
      if (!isCommandName(frame.command))
        throw new CommandFailure('unsupported', `This extension does not know ${frame.command}; update it.`);
      const parsed = COMMANDS[frame.command].params.safeParse(frame.params ?? {});
      if (!parsed.success) throw new CommandFailure('invalid_input', `Invalid params for ${frame.command}.`);
      // the handler table is keyed by the same name the params were parsed for
      const handler = handlers[frame.command] as (params: unknown) => Promise<unknown>;
      const result = await handler(parsed.data);
      return { version: WIRE_VERSION, type: 'result', id: frame.id, ok: true, result };
    } catch (error) {
      return {
        version: WIRE_VERSION,
        type: 'result',
        id: frame.id,
        ok: false,
        error: CommandFailure.from(error).toWire(),
      };
    }
  };
}
