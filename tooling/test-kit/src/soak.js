/**
 * The soak drive shared by `bench/soak-bench.mjs` (4 clients x 2,500 commands) and the short CI test
 * (4 x 50): each client drives a tab of its own through a fixed mix of navigate, snapshot, click,
 * fill, evaluate and screenshot on SOAK_PAGE, and every command that changes the page leaves a
 * count in the page's localStorage (page loads, clicks, input events of fills, evaluations), keyed
 * by client. At the end the counts are read back and compared with what was sent: a lost command
 * leaves a count short, a command run twice leaves it high. The daemon's journal gives the same
 * check for every command (snapshots and screenshots included) per client name.
 */

/** The soak page: `?c=<client>` names the counters it bumps. */
export const SOAK_PAGE = `<!doctype html><title>Soak</title>
<script>
  const who = new URLSearchParams(location.search).get('c') || 'x';
  const bump = (what) => {
    const key = what + '-' + who;
    const next = Number(localStorage.getItem(key) || 0) + 1;
    localStorage.setItem(key, String(next));
    return next;
  };
  bump('loads');
</script>
<h1>Soak</h1>
<label>Name <input id="name" oninput="bump('fills')"></label>
<button id="hit" onclick="bump('clicks'); out.textContent = 'clicked ' + Date.now()">Hit</button>
<p id="out"></p>
<ul>${Array.from({ length: 30 }, (_, i) => `<li><a href="#item-${i}">Item ${i}</a></li>`).join('')}</ul>`;

/** The kinds of command in the mix, by step % 10. */
export const SOAK_MIX = [
  'goto',
  'snapshot-i',
  'click',
  'fill',
  'eval',
  'snapshot',
  'click',
  'fill',
  'eval',
  'screenshot',
];

const KEYS = { goto: 'loads', click: 'clicks', fill: 'fills', eval: 'evals' };

/** localStorage reads of the counters, as one expression. */
const readCounts = (who) =>
  `JSON.stringify(Object.fromEntries(['loads', 'clicks', 'fills', 'evals'].map((k) => [k, Number(localStorage.getItem(k + '-' + ${JSON.stringify(who)}) || 0)])))`;

/** The ref of the Hit button in an interactive snapshot (`button "Hit" e12`). */
function hitRef(text) {
  return /button "Hit" (e\d+)/.exec(text)?.[1];
}

/**
 * Runs the soak. `clients` are Argus clients (each with its own name, so the journal tells them
 * apart); `pageUrl` serves SOAK_PAGE. `onCommand(ms, kind)` sees each command's latency; `onDone()`
 * runs after each command (memory curves). Returns per-client sent counts and failures.
 * @param {object} options
 * @param {Array<{ name: string, client: import('../index.js').SoakClient }>} options.clients
 * @param {string} options.pageUrl
 * @param {number} options.commands per client
 * @param {(ms: number, kind: string) => void} [options.onCommand]
 * @param {() => Promise<void> | void} [options.onDone]
 */
export async function runSoak({ clients, pageUrl, commands, onCommand, onDone }) {
  const results = await Promise.all(
    clients.map(async ({ name, client }) => {
      const url = `${pageUrl}${pageUrl.includes('?') ? '&' : '?'}c=${encodeURIComponent(name)}`;
      const tab = (await client.tabs.open.mutate({ url })).id;
      const sent = { loads: 1, clicks: 0, fills: 0, evals: 0 };
      /** @type {Record<string, number>} */
      const commandsSent = { 'tabs.open': 1 };
      const failures = [];
      let ref;
      for (let i = 0; i < commands; i += 1) {
        const kind = SOAK_MIX[i % SOAK_MIX.length];
        const started = performance.now();
        try {
          switch (kind) {
            case 'goto':
              await client.page.goto.mutate({ url, tab });
              ref = undefined;
              break;
            case 'snapshot-i':
              ref = hitRef((await client.snapshot.take.mutate({ interactive: true, tab })).text) ?? ref;
              break;
            case 'snapshot':
              await client.snapshot.take.mutate({ tab });
              break;
            case 'click':
              await client.input.click.mutate({ target: ref ?? '#hit', tab });
              break;
            case 'fill':
              await client.input.fill.mutate({ target: '#name', text: `${name} ${i}`, tab });
              break;
            case 'eval': {
              const { value } = await client.page.eval.mutate({ js: 'bump("evals")', tab });
              // the page's own count after this evaluation: one more than the evaluations sent so far
              if (value !== sent.evals + 1)
                failures.push(`${name} #${i}: eval count ${value}, expected ${sent.evals + 1}`);
              break;
            }
            default:
              await client.page.screenshot.mutate({ base64: true, tab });
          }
        } catch (error) {
          failures.push(`${name} #${i} ${kind}: ${error.code ?? ''} ${error.message}`);
        }
        onCommand?.(performance.now() - started, kind);
        const key = KEYS[kind];
        if (key) sent[key] += 1;
        const path = COMMAND_OF[kind];
        commandsSent[path] = (commandsSent[path] ?? 0) + 1;
        await onDone?.();
      }
      const seen = JSON.parse((await client.page.eval.mutate({ js: readCounts(name), tab })).value);
      commandsSent['page.eval'] = (commandsSent['page.eval'] ?? 0) + 1;
      await client.tabs.close.mutate({ id: tab });
      commandsSent['tabs.close'] = 1;
      return { name, sent, seen, commandsSent, failures };
    }),
  );
  return results;
}

/** The contract path each kind calls (what the journal records). */
const COMMAND_OF = {
  goto: 'page.goto',
  'snapshot-i': 'snapshot.take',
  snapshot: 'snapshot.take',
  click: 'input.click',
  fill: 'input.fill',
  eval: 'page.eval',
  screenshot: 'page.screenshot',
};

/**
 * Compares the page's counts and the journal's rows with what each client sent. `journalLines` is
 * `journal.export`'s JSON lines. Returns the mismatches (empty: nothing lost, nothing doubled).
 * @param {Awaited<ReturnType<typeof runSoak>>} results
 * @param {string} journalLines
 */
export function soakMismatches(results, journalLines) {
  const rows = journalLines
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line));
  const problems = [];
  for (const result of results) {
    for (const [key, count] of Object.entries(result.sent)) {
      if (result.seen[key] !== count)
        problems.push(`${result.name}: page counted ${result.seen[key]} ${key}, sent ${count}`);
    }
    const mine = rows.filter((row) => row.client === result.name);
    /** @type {Record<string, number>} */
    const journaled = {};
    for (const row of mine) journaled[row.command] = (journaled[row.command] ?? 0) + 1;
    for (const [command, count] of Object.entries(result.commandsSent)) {
      if (journaled[command] !== count)
        problems.push(`${result.name}: journal has ${journaled[command] ?? 0} ${command}, sent ${count}`);
    }
    for (const command of Object.keys(journaled)) {
      if (!(command in result.commandsSent))
        problems.push(`${result.name}: journal has ${journaled[command]} ${command}, never sent`);
    }
    const failed = mine.filter((row) => !row.ok);
    if (failed.length)
      problems.push(`${result.name}: ${failed.length} failed rows in the journal (${failed[0].errorCode})`);
  }
  return problems;
}
