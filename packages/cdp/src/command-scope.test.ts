import { describe, expect, it } from 'vitest';
import { runInCommandScope } from './command-scope.js';

describe('command scope', () => {
  it("lets a command's many calls in flight listen for its abort without a leak warning", async () => {
    const warnings: string[] = [];
    const onWarning = (warning: Error) => warnings.push(warning.name);
    process.on('warning', onWarning);
    try {
      const signal = new AbortController().signal;
      await runInCommandScope({ signal }, async () => {
        // what a navigation's concurrent CDP calls do (Session.send, call deadlines), 20 at once
        const listeners = Array.from({ length: 20 }, () => () => undefined);
        for (const listener of listeners) signal.addEventListener('abort', listener, { once: true });
        await new Promise((resolve) => setTimeout(resolve, 20));
        for (const listener of listeners) signal.removeEventListener('abort', listener);
      });
      expect(warnings).not.toContain('MaxListenersExceededWarning');
    } finally {
      process.off('warning', onWarning);
    }
  });
});
