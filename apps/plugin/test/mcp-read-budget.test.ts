import { describe, expect, it } from 'vitest';
import { AGENT_READ_MAX_CHARS } from '@argus/protocol';
import { callTool, ok, usePluginWorkspace } from './helpers.js';

const w = usePluginWorkspace({ prefix: 'argus-read-budget-' });

/** A long real article (Wikipedia), whose full snapshot runs well past the agent budget, and a long text. */
describe("an agent's snapshot and text of a huge page are cut to a budget it can read", () => {
  it('snapshot: cut at a line with a cursor that reaches the rest; text: cut, saying how to get more', async () => {
    await ok(w.plugin.client, 'argus_goto', { url: w.fixtures.urlFor('/real/wikipedia/') });

    const first = await callTool(w.plugin.client, 'argus_snapshot');
    const shown = first.structuredContent as { text: string; truncated: boolean; cursor?: string };
    expect(shown.truncated).toBe(true);
    expect(shown.text.length).toBeLessThanOrEqual(AGENT_READ_MAX_CHARS + 200);
    expect(shown.cursor).toMatch(/^s\d+\.\d+$/);
    // the cursor continues, again within the budget
    const next = await callTool(w.plugin.client, 'argus_snapshot', { cursor: shown.cursor });
    const rest = next.structuredContent as { text: string };
    expect(rest.text.length).toBeLessThanOrEqual(AGENT_READ_MAX_CHARS + 200);
    expect(rest.text).not.toBe(shown.text);
    // an agent that names a size gets that size
    const whole = (await callTool(w.plugin.client, 'argus_snapshot', { maxChars: 5_000_000 })).structuredContent as {
      text: string;
      truncated: boolean;
    };
    expect(whole.truncated).toBe(false);
    expect(whole.text.length).toBeGreaterThan(AGENT_READ_MAX_CHARS);

    // 300 KB of plain text (the fixture server's /big): more text than any of the real pages holds
    await ok(w.plugin.client, 'argus_goto', { url: w.fixtures.urlFor('/big?bytes=300000') });
    const text = await callTool(w.plugin.client, 'argus_text');
    expect((text.structuredContent as { truncated: boolean }).truncated).toBe(true);
    const said = (text.content[0] as { text: string }).text;
    expect(said).toMatch(/truncated at 50000 characters: argus_text \{"maxChars":200000\} reads more/);
    expect((await callTool(w.plugin.client, 'argus_text', { maxChars: 2_000_000 })).structuredContent).toMatchObject({
      truncated: false,
    });
  });
});
