import type { ObserveCall } from '@argus/protocol/router';

/** The router takes one observer: this runs several (journal, watch feed), each on its own. */
export function observeAll(...observers: ObserveCall[]): ObserveCall {
  return (ctx, command, input) => {
    const settles = observers.map((observe) => observe(ctx, command, input));
    return (error, output) => {
      for (const settle of settles) settle?.(error, output);
    };
  };
}
