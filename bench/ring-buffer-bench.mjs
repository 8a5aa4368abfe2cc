#!/usr/bin/env node
// Ring-buffer append cost: 100,000 console messages, (1) raw RingBuffer.push of prebuilt records and
// (2) the full PageCapture path, fed synthetic Runtime.consoleAPICalled events through a real
// Session on a fake transport (argument preview, level mapping, stack top, listeners). The
// baseline is an Array.push into an unbounded array in the same run.
// Usage: pnpm --filter @argus/cdp build && node bench/ring-buffer-bench.mjs [--events N] [--runs N] [--capacity N]
import { PageCapture, RingBuffer, Session } from '@argus/cdp';
import { benchOptions } from './lib-args.mjs';
import { median } from './lib-stats.mjs';

const { events: EVENTS, runs: RUNS, capacity: CAPACITY } = benchOptions({ events: 100_000, runs: 7, capacity: 5_000 });

const fakeTransport = {
  closed: false,
  send: async () => ({}),
  onEvent: () => () => {},
  onClose: () => () => {},
  close: async () => {},
};

function consoleEvent(i) {
  return {
    method: 'Runtime.consoleAPICalled',
    sessionId: 'S1',
    params: {
      type: i % 10 === 0 ? 'error' : 'log',
      args: [
        { type: 'string', value: `message ${i}` },
        { type: 'number', value: i, description: String(i) },
      ],
      executionContextId: 1,
      timestamp: 1_700_000_000_000 + i,
      stackTrace: {
        callFrames: [
          { functionName: 'tick', scriptId: '1', url: 'http://127.0.0.1/app.js', lineNumber: 10, columnNumber: 4 },
        ],
      },
    },
  };
}

const events = Array.from({ length: EVENTS }, (_, i) => consoleEvent(i));
const records = events.map((event) => ({
  level: 'log',
  text: `message ${event.params.timestamp}`,
  url: 'http://127.0.0.1/app.js',
  line: 11,
  column: 5,
  stack: undefined,
  source: 'console',
  timestamp: event.params.timestamp,
}));

function time(run) {
  const started = process.hrtime.bigint();
  run();
  return Number(process.hrtime.bigint() - started) / 1e6;
}

const cases = {
  'Array.push (unbounded baseline)': () => {
    const array = [];
    return time(() => {
      for (const record of records) array.push(record);
    });
  },
  'RingBuffer.push': () => {
    const ring = new RingBuffer(CAPACITY);
    return time(() => {
      for (const record of records) ring.push(record);
    });
  },
  'PageCapture (Runtime.consoleAPICalled -> buffer)': () => {
    const session = new Session(fakeTransport, 'S1', 'T1', 'page');
    const capture = new PageCapture({ capacity: CAPACITY });
    const detach = capture.attach(session);
    let delivered = 0;
    const off = capture.onConsole(() => delivered++);
    const ms = time(() => {
      for (const event of events) session.dispatch(event);
    });
    off();
    detach();
    if (delivered !== EVENTS || capture.console.size !== Math.min(CAPACITY, EVENTS))
      throw new Error('PageCapture dropped events');
    return ms;
  },
};

// warm up the JIT on every path, then measure
for (const run of Object.values(cases)) run();
console.log(
  `ring-buffer bench: ${EVENTS.toLocaleString('en-US')} console messages, capacity ${CAPACITY.toLocaleString('en-US')}, median of ${RUNS} runs`,
);
const baseline = median(Array.from({ length: RUNS }, cases['Array.push (unbounded baseline)']));
for (const [name, run] of Object.entries(cases)) {
  const ms = name.startsWith('Array') ? baseline : median(Array.from({ length: RUNS }, run));
  const perSecond = Math.round((EVENTS / ms) * 1000);
  console.log(
    `  ${name.padEnd(50)} ${ms.toFixed(2).padStart(8)} ms  ${perSecond.toLocaleString('en-US').padStart(14)} events/s  ${(ms / baseline).toFixed(1).padStart(6)}x baseline`,
  );
}
