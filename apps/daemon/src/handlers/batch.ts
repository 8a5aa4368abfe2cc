import { ArgusError, type CallContext, type Handlers, commandByName } from '@argus/protocol';
import { type StepOutcome, settle } from '../dispatch.js';
import type { Services } from '../services.js';

function result(index: number, command: string, outcome: StepOutcome) {
  return outcome.ok
    ? { index, command, ok: true, output: outcome.output }
    : { index, command, ok: false, error: outcome.error };
}

/**
 * Compound commands. Every step goes through `services.dispatch` (the router's own caller with the
 * caller's scopes), so a batch can do nothing a single request could not.
 */
export function batchHandlers(services: Services): Handlers['batch'] {
  const { manager } = services;
  const run = (path: string, input: unknown, ctx: CallContext) => settle(services.dispatch, path, input, ctx);
  return {
    async chain(input, ctx) {
      const results = [];
      for (const [index, step] of input.steps.entries()) {
        const outcome = await run(step.command, step.input, ctx);
        results.push(result(index, step.command, outcome));
        if (!outcome.ok) {
          services.log.warn('chain.step_failed', { step: index, command: step.command, code: outcome.error.code });
          return { ok: false, failedStep: index, results };
        }
      }
      return { ok: true, failedStep: null, results };
    },

    async run(input, ctx) {
      // Same tab (same `tab` value, or none = the active tab): in order. Different tabs: in parallel.
      const lanes = new Map<string, number[]>();
      input.commands.forEach((command, index) => {
        const tab = command.input.tab;
        const lane = typeof tab === 'string' ? `tab:${tab}` : 'active';
        lanes.set(lane, [...(lanes.get(lane) ?? []), index]);
      });
      const results: Array<ReturnType<typeof result>> = new Array(input.commands.length);
      await Promise.all(
        [...lanes.values()].map(async (indexes) => {
          for (const index of indexes) {
            const command = input.commands[index]!;
            results[index] = result(index, command.command, await run(command.command, command.input, ctx));
          }
        }),
      );
      const failed = results.filter((entry) => !entry.ok).length;
      return { succeeded: results.length - failed, failed, results };
    },

    async tabEach(input, ctx) {
      const command = commandByName(input.command);
      if (!command)
        throw new ArgusError(
          'invalid_input',
          `Unknown command "${input.command}". Use a contract path such as page.url (see docs/SURFACE.md).`,
        );
      if (!('tab' in command.input.shape))
        throw new ArgusError('invalid_input', `${input.command} does not act on a tab, so it cannot run once per tab.`);
      if ('tab' in input.input)
        throw new ArgusError('invalid_input', 'Leave `tab` out of the input: tab-each fills it in for every tab.');
      const tabs = await manager.structural(async (browser) => manager.visibleTabs(browser));
      const results = await Promise.all(
        tabs.map(async (tab) => {
          const outcome = await run(input.command, { ...input.input, tab: tab.id }, ctx);
          return outcome.ok
            ? { tab: tab.id, url: tab.url, ok: true, output: outcome.output }
            : { tab: tab.id, url: tab.url, ok: false, error: outcome.error };
        }),
      );
      return { results };
    },
  };
}
