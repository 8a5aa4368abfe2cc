import { tool } from '@opencode-ai/plugin/tool';
import { AGENT_READ_MAX_CHARS } from '@argus/protocol';
import { ArgusError } from '@argus/protocol/errors';
import { describe, expect, it } from 'vitest';
import { openCodeArgs, openCodeTools } from './opencode-tools.js';
import type { CommandCaller } from './run-tool.js';
import { allToolSpecs } from './tool-specs.js';

const context = {} as Parameters<ReturnType<typeof tool>['execute']>[1];

describe('OpenCode tools', () => {
  it('exports the same selection as the MCP server, with args in OpenCode zod', () => {
    const tools = openCodeTools({ caller: { call: async () => ({}) }, profile: 'core' });
    expect(Object.keys(tools)).toContain('argus_snapshot');
    expect(Object.keys(tools)).not.toContain('argus_drag');
    const click = allToolSpecs().find((spec) => spec.name === 'argus_click')!;
    const schema = tool.schema.toJSONSchema(tool.schema.object(openCodeArgs(click))) as {
      properties: Record<string, { type?: string; enum?: string[]; description?: string }>;
      required: string[];
    };
    expect(schema.required).toEqual(['target']);
    expect(schema.properties.button).toMatchObject({ enum: ['left', 'right', 'middle'], description: 'Mouse button' });
    expect(schema.properties.timeoutMs).toMatchObject({ type: 'integer' });
  });

  it('builds args for every tool in the manifest, nested step lists and records included', () => {
    for (const spec of allToolSpecs()) {
      const json = tool.schema.toJSONSchema(tool.schema.object(openCodeArgs(spec))) as {
        properties: Record<string, unknown>;
      };
      expect(Object.keys(json.properties).sort(), spec.name).toEqual(Object.keys(spec.inputSchema.properties).sort());
    }
  });

  it('executes through the caller, dropping undefined args; failures throw error[code]', async () => {
    const calls: unknown[] = [];
    const caller: CommandCaller = {
      async call(_command, input) {
        calls.push(input);
        if ((input as { target: string }).target === 'gone') throw new ArgusError('ref_stale', 'Ref is stale.');
        return { text: 'Hello', truncated: false };
      },
    };
    const tools = openCodeTools({ caller, tools: ['text'], untrustedEnvelope: false });
    await expect(tools.argus_text!.execute({ target: undefined } as never, context)).resolves.toBe('Hello');
    // no undefined target; an agent's text is bounded unless it names a size
    expect(calls).toEqual([{ maxChars: AGENT_READ_MAX_CHARS }]);
    await expect(tools.argus_text!.execute({ target: 'gone' } as never, context)).rejects.toThrow(
      'error[ref_stale]: Ref is stale.',
    );
  });
});
