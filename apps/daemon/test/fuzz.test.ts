import { request } from 'node:http';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { type AnyCommand, type FieldInfo, describeInput, listCommands } from '@argus/protocol';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { useHarness } from './harness.js';

/**
 * Malformed input for every manifest procedure, over HTTP to a real daemon with a real browser
 * (issue 11, "fuzz every command"). Two generators:
 * - hand-picked hostile values per field (wrong types, NaN-like strings, huge numbers, unicode, lone
 *   surrogates, NUL bytes, deep nesting, 100 KB strings, prototype keys), each required field
 *   missing, unknown fields, non-object inputs, one 10 MB string per mutation, broken JSON and
 *   unknown procedure names;
 * - property-based inputs from fast-check, built from each command's zod input (field names and
 *   kinds from `describeInput`): every field gets either a value of its kind or anything at all,
 *   with a fixed seed so a failure replays.
 * Only typed errors may come back: no 500, no `internal`, no untyped 4xx; the daemon keeps
 * answering and its memory stays bounded. Bounded in count and in wall time.
 */

const h = useHarness();

/** Commands that end the session or switch its browser when some generated input happens to be valid. */
const EXCLUDED = new Set([
  'daemon.stop',
  'session.connect',
  'session.pair',
  'config.set',
  'daemon.tokenRevoke',
  'daemon.share',
]);
/**
 * Commands that wait for a person (the annotate picker, up to its --timeout): fuzzed with the wait cut
 * to a second, so a well-formed input ends as its typed `timeout` status instead of outliving the
 * per-request limit. Their other fields are fuzzed as given.
 */
const PERSON_WAIT: Readonly<Record<string, Record<string, unknown>>> = {
  'inbox.annotate': { timeout: 1 },
};
const withShortWait = (name: string, input: unknown): unknown =>
  PERSON_WAIT[name] && input !== null && typeof input === 'object' && !Array.isArray(input)
    ? { ...input, ...PERSON_WAIT[name] }
    : input;
const TIME_BUDGET_MS = 240_000;
// above the contract's own 30 s load timeouts (goto, load-html): a slow load must end as a typed
// navigation_timeout, which a shorter limit here would cut off and count as untyped
const PER_REQUEST_MS = 45_000;
const SEED = 20261124;
const PROPERTY_RUNS = 12;

function deep(levels: number): unknown {
  let value: unknown = 'leaf';
  for (let index = 0; index < levels; index += 1) value = index % 2 ? [value] : { a: value };
  return value;
}

const WRONG: readonly unknown[] = [
  'x',
  '',
  -1,
  0.5,
  1e308,
  Number.MAX_SAFE_INTEGER + 2,
  true,
  null,
  [],
  {},
  'NaN',
  '\u202e\u0645\u0631\u062d\u0628\u0627 \u{1f600}\u0301',
  'a\u0000b',
  '\ud800',
  '../../../../etc/passwd',
  'javascript:alert(1)',
  deep(200),
  'y'.repeat(100_000),
];

function sample(field: FieldInfo): unknown {
  switch (field.type) {
    case 'number':
      return 1;
    case 'boolean':
      return false;
    case 'enum':
      return field.values[0];
    case 'array':
      return [];
    case 'object':
      return {};
    default:
      return 'e1';
  }
}

/** The required fields with plausible values, and a short wait so element look-ups fail fast. */
function requiredBase(fields: readonly FieldInfo[]): Record<string, unknown> {
  const base: Record<string, unknown> = Object.fromEntries(
    fields
      .filter((field) => !field.optional && field.defaultValue === undefined)
      .map((field) => [field.name, sample(field)]),
  );
  if (fields.some((field) => field.name === 'timeoutMs')) base.timeoutMs = 300;
  return base;
}

function handPicked(command: AnyCommand): unknown[] {
  const fields = describeInput(command.input);
  const base = requiredBase(fields);
  const out: unknown[] = [
    'str',
    42,
    [1, 2],
    { ...base, tabb: 'x' },
    { ...base, ['__proto__']: { admin: true } },
    { ...base, constructor: { prototype: 1 } },
  ];
  for (const field of fields) {
    if (!field.optional && field.defaultValue === undefined) {
      const { [field.name]: _dropped, ...rest } = base;
      out.push(rest);
    }
    for (const value of WRONG) out.push({ ...base, [field.name]: value });
  }
  return out;
}

/** A value of the field's own kind, sometimes at or past its edges. */
function ofKind(field: FieldInfo): fc.Arbitrary<unknown> {
  switch (field.type) {
    case 'number':
      return fc.oneof(fc.integer({ min: -1_000_000, max: 1_000_000 }), fc.double());
    case 'boolean':
      return fc.boolean();
    case 'enum':
      return field.values.length ? fc.oneof(fc.constantFrom(...field.values), fc.string()) : fc.string();
    case 'array':
      return fc.array(fc.oneof(fc.string({ unit: 'binary' }), fc.integer(), fc.constant(null)), { maxLength: 8 });
    case 'object':
      return fc.dictionary(fc.string({ maxLength: 8 }), fc.jsonValue({ maxDepth: 3 }), { maxKeys: 5 });
    default:
      return fc.oneof(
        fc.string({ unit: 'binary', maxLength: 300 }),
        fc.string({ unit: 'grapheme', maxLength: 50 }),
        fc.constantFrom('e1', 'e999999', '#x', 'text=Send', 'about:blank'),
      );
  }
}

/** Inputs shaped like the command's own: each field present or not, of its kind or anything at all. */
function propertyInputs(command: AnyCommand): unknown[] {
  const fields = describeInput(command.input);
  if (fields.length === 0) return fc.sample(fc.jsonValue({ maxDepth: 3 }), { numRuns: 3, seed: SEED });
  const record = fc.record(
    Object.fromEntries(fields.map((field) => [field.name, fc.oneof(ofKind(field), fc.jsonValue({ maxDepth: 4 }))])),
    { requiredKeys: [] },
  );
  return fc.sample(record, { numRuns: PROPERTY_RUNS, seed: SEED });
}

/** A full garbage collection (the flag is read when a new context is made), so retained memory can be measured. */
function collectGarbage(): void {
  setFlagsFromString('--expose-gc');
  (runInNewContext('gc') as () => void)();
}

interface Answer {
  status: number;
  code: string | undefined;
}

/** One raw tRPC call: queries as GET with ?input=, mutations as POST with a JSON body (or raw text). */
function call(path: string, kind: 'query' | 'mutation', input: unknown, raw?: string): Promise<Answer> {
  const body = raw ?? JSON.stringify(input);
  const url = kind === 'query' ? `/trpc/${path}?input=${encodeURIComponent(body)}` : `/trpc/${path}`;
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: '127.0.0.1',
        port: h.daemon.port,
        path: url,
        method: kind === 'query' ? 'GET' : 'POST',
        headers: { authorization: `Bearer ${h.daemon.token}`, 'content-type': 'application/json' },
        timeout: PER_REQUEST_MS,
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          let code: string | undefined;
          try {
            code = (JSON.parse(text) as { error?: { data?: { argus?: { code?: string } } } }).error?.data?.argus?.code;
          } catch {
            code = undefined;
          }
          resolve({ status: res.statusCode ?? 0, code });
        });
      },
    );
    req.on('timeout', () => req.destroy(new Error(`no answer to ${path} within ${PER_REQUEST_MS} ms`)));
    req.on('error', reject);
    req.end(kind === 'mutation' ? body : undefined);
  });
}

describe('fuzz: malformed input for every command', () => {
  it(
    'gets typed errors only, the daemon stays up and its memory bounded',
    { timeout: TIME_BUDGET_MS + 120_000 },
    async () => {
      await h.client.page.goto.mutate({ url: h.server.urlFor('/form.html') });
      const started = Date.now();
      collectGarbage();
      const heapBefore = process.memoryUsage().heapUsed;
      const rssBefore = process.memoryUsage().rss;
      let peakRss = rssBefore;
      let tried = 0;
      let generated = 0;
      const untyped: string[] = [];
      const byCode = new Map<string, number>();
      const record = (label: string, answer: Answer) => {
        tried += 1;
        const key = answer.code ?? `http ${answer.status}`;
        byCode.set(key, (byCode.get(key) ?? 0) + 1);
        // typed errors may be 5xx (navigation_failed is 502); an untyped one has no Argus code
        if (
          answer.status === 0 ||
          answer.status === 500 ||
          answer.code === 'internal' ||
          (answer.status >= 400 && answer.code === undefined)
        )
          untyped.push(`${label} -> ${answer.status} ${answer.code ?? '(untyped)'}`);
      };
      const commands = listCommands().filter(
        (command) => command.kind !== 'subscription' && !EXCLUDED.has(command.name),
      );
      const slowest: Array<[string, number]> = [];
      outer: for (const command of commands) {
        const commandStarted = Date.now();
        const kind = command.kind as 'query' | 'mutation';
        const property = propertyInputs(command);
        generated += property.length;
        for (const input of [...handPicked(command), ...property]) {
          if (Date.now() - started > TIME_BUDGET_MS) break outer;
          const answer = await call(command.name, kind, withShortWait(command.name, input)).catch((error: unknown) => ({
            status: 0,
            code: `transport: ${(error as Error).message}`,
          }));
          record(`${command.name} ${JSON.stringify(input)?.slice(0, 120)}`, answer);
        }
        if (kind === 'mutation') {
          const field = describeInput(command.input).find((entry) => entry.type === 'string');
          if (field)
            record(
              `${command.name} 10 MB ${field.name}`,
              await call(command.name, kind, { [field.name]: 'z'.repeat(10 * 1024 * 1024) }),
            );
          record(`${command.name} broken JSON`, await call(command.name, kind, undefined, '{"a":'));
        }
        peakRss = Math.max(peakRss, process.memoryUsage().rss);
        slowest.push([command.name, Date.now() - commandStarted]);
      }
      slowest.sort((a, b) => b[1] - a[1]);
      for (const path of [
        'nope.nope',
        'page.__proto__',
        'constructor.prototype',
        '__proto__.toString',
        'page',
        'page.goto.extra',
        '%00',
      ]) {
        record(`unknown ${path}`, await call(path, 'query', {}));
        record(`unknown ${path}`, await call(path, 'mutation', {}));
      }
      const health = await h.client.daemon.status.query({});
      collectGarbage();
      const retained = process.memoryUsage().heapUsed - heapBefore;
      const seconds = ((Date.now() - started) / 1000).toFixed(1);
      console.log(
        `fuzz: ${tried} inputs (${generated} from fast-check, seed ${SEED}) over ${commands.length} commands in ${seconds} s; outcomes ${JSON.stringify(Object.fromEntries([...byCode].sort((a, b) => b[1] - a[1])))}; rss ${Math.round(rssBefore / 1e6)} -> peak ${Math.round(peakRss / 1e6)} MB; heap retained after GC ${Math.round(retained / 1e6)} MB; slowest ${slowest
          .slice(0, 5)
          .map(([name, ms]) => `${name} ${ms} ms`)
          .join(', ')}`,
      );
      expect(untyped).toEqual([]);
      expect(health.pid).toBe(process.pid);
      expect(tried).toBeGreaterThan(1_000);
      // what stays is the state valid inputs made (tabs the fuzz opened, their capture buffers: ~100 MB
      // measured); the 81 refused 10 MB strings (810 MB) must not be among it. V8 grows the heap lazily,
      // so the peak bound is coarse
      expect(retained).toBeLessThan(250 * 1024 * 1024);
      expect(peakRss - rssBefore).toBeLessThan(1_500 * 1024 * 1024);
    },
  );
});

describe('what the first fuzz runs found', () => {
  it('a query input too long for a URL is payload_too_large (typed), not a bare 431', async () => {
    const answer = await call('read.text', 'query', { target: 'q'.repeat(40_000) });
    expect(answer).toEqual({ status: 431, code: 'payload_too_large' });
    expect((await h.client.daemon.status.query({})).pid).toBe(process.pid);
  });

  it('type refuses 100 KB of text up front instead of pressing keys for minutes', async () => {
    const answer = await call('input.type', 'mutation', { text: 'k'.repeat(100_000) });
    expect(answer).toEqual({ status: 400, code: 'invalid_input' });
  });
});
