import { ArgusError, type Handlers } from '@argus/protocol';
import { ProtocolError } from '@argus/cdp';
import { checkCdpMethod, checkDomain } from '@argus/security';
import type { Services } from '../services.js';

const CDP_DEADLINE_MS = 30_000;

/** `argus cdp`: one raw CDP call on a tab's session, for admins, through the method allow-list. */
export function cdpHandlers(services: Services): Handlers['cdp'] {
  const { manager } = services;
  return {
    send: (input, ctx) => {
      const policy = services.config.current().policy;
      const verdict = checkCdpMethod(input.method, policy?.cdp?.allow);
      if (!verdict.allowed) {
        services.log.warn('policy.denied', {
          command: 'cdp.send',
          method: input.method,
          reason: verdict.reason,
          client: ctx.client,
        });
        throw new ArgusError('policy_denied', `${verdict.reason}.`, { details: { method: input.method } });
      }
      // an operator-allowed Page.navigate still obeys the domain policy and never opens local files
      const url = input.params?.url;
      if (input.method === 'Page.navigate' && typeof url === 'string') {
        const domain = checkDomain(policy?.domains, url);
        if (!domain.allowed || !/^(https?|about|data):/i.test(url)) {
          throw new ArgusError(
            'policy_denied',
            `Page.navigate to ${url.slice(0, 200)} is refused: ${domain.allowed ? 'only http(s) URLs' : domain.reason}.`,
          );
        }
      }
      return manager.onTab(input.tab, async (page) => {
        let timer: NodeJS.Timeout | undefined;
        try {
          const result = await Promise.race([
            page.session.send(input.method, input.params ?? {}),
            new Promise<never>((_, reject) => {
              timer = setTimeout(
                () => reject(new ArgusError('timeout', `${input.method} did not answer within ${CDP_DEADLINE_MS} ms.`)),
                CDP_DEADLINE_MS,
              );
            }),
          ]);
          return { method: input.method, result: result ?? {} };
        } catch (error) {
          if (error instanceof ProtocolError)
            throw new ArgusError(
              'invalid_input',
              `Chrome refused ${input.method}: ${error.message}. Check the method's parameters in the CDP docs.`,
            );
          throw error;
        } finally {
          clearTimeout(timer);
        }
      });
    },
  };
}
