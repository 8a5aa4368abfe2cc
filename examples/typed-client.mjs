#!/usr/bin/env node
// Drives a page through the typed Argus client (@argus/client): connect (starting the workspace
// daemon if needed), goto, snapshot, fill and select by ref, click, read the result, handle a
// typed error. Run from the repository root after `pnpm install && pnpm build`:
//
//   node examples/typed-client.mjs            # serves the test-kit form page on a random port
//   node examples/typed-client.mjs --keep     # leave the daemon (and its browser) running
//
// In your own project import from the package instead: `import { connectToDaemon } from '@argus/client'`.
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { connectToDaemon, findRef } from '@argus/client';
import { startFixtureServer } from '@argus/test-kit';

const daemonEntry = fileURLToPath(new URL('../apps/daemon/dist/main.js', import.meta.url));
const { keep } = parseArgs({ options: { keep: { type: 'boolean', default: false } } }).values;

/**
 * The ref of the first element matching a pattern or name, e.g. /"Email"/ in
 * `link "Home" e1 "News" e2` style lines (findRef reads the ref grammar for you).
 */
function refOf(snapshot, pattern) {
  const ref = findRef(snapshot, pattern);
  if (!ref) throw new Error(`no ${pattern} in the snapshot:\n${snapshot}`);
  return ref;
}

const fixtures = await startFixtureServer();
// autoStart: start the per-workspace daemon (state in <git top-level>/.argus, or $ARGUS_STATE_DIR) when none answers.
const connection = await connectToDaemon({ autoStart: true, daemonEntry, transport: 'batch' });
const { client } = connection;
console.log(`daemon on port ${connection.state.port} (${connection.started ? 'started now' : 'already running'})`);

try {
  const page = await client.page.goto.mutate({ url: fixtures.urlFor('/form.html') });
  console.log(`goto: ${page.title} (${page.status})`);

  const snapshot = await client.snapshot.take.mutate({ interactive: true });
  console.log(`snapshot: ${snapshot.refs} refs\n${snapshot.text}`);

  await client.input.fill.mutate({ target: refOf(snapshot.text, /"Name"/), text: 'Ada Lovelace' });
  await client.input.fill.mutate({ target: refOf(snapshot.text, /"Email"/), text: 'ada@example.com' });
  const chosen = await client.input.select.mutate({
    target: refOf(snapshot.text, /combobox "Country"/),
    value: 'Canada',
  });
  console.log(`select: ${chosen.selected.label} (${chosen.selected.value})`);
  const click = await client.input.click.mutate({ target: refOf(snapshot.text, /button "Sign up"/) });
  console.log(`click: ${click.element}, navigated: ${click.navigated}`);

  const { text } = await client.read.text.query({ target: '#result' });
  console.log(`result: ${text}`);

  // Every failure is an ArgusError with a stable code and a message that says what to do next.
  try {
    await client.input.click.mutate({ target: 'e9999' });
  } catch (error) {
    console.log(`expected error: ${error.code}: ${error.message}`);
  }
} finally {
  if (connection.started && !keep) await client.daemon.stop.mutate({});
  connection.close();
  await fixtures.close();
}
