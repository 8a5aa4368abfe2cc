import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { listCommands } from '@argus/protocol';
import { describe, expect, it } from 'vitest';
import {
  ADAPTER_HIDDEN_FIELDS,
  BUILT_TOOL_SPECS,
  allToolSpecs,
  inputSchemaFor,
  storedToolSpecs,
} from './tool-specs.js';

describe('tool specs generated from the manifest', () => {
  const specs = allToolSpecs();

  it('has one tool per manifest command with a tool name, and none for tool: false', () => {
    const expected = listCommands()
      .filter((command) => command.tool !== false && command.kind !== 'subscription')
      .map((command) => command.tool)
      .sort();
    expect(specs.map((spec) => spec.name)).toEqual(expected);
    expect(new Set(specs.map((spec) => spec.name)).size).toBe(specs.length);
  });

  it('every tool has a description and an object schema whose every field is typed and described', () => {
    for (const spec of specs) {
      expect(spec.description.length, spec.name).toBeGreaterThan(10);
      expect(spec.inputSchema.type).toBe('object');
      const hidden = ADAPTER_HIDDEN_FIELDS[spec.command.name] ?? [];
      const fields = Object.keys(spec.command.input.shape).filter((field) => !hidden.includes(field));
      expect(Object.keys(spec.inputSchema.properties).sort(), spec.name).toEqual(fields.sort());
      for (const [field, schema] of Object.entries(spec.inputSchema.properties)) {
        expect(typeof schema.description, `${spec.name}.${field}`).toBe('string');
        // one type, or a choice of typed ones (select's value: an option or a list of them)
        const choices = (schema.anyOf ?? []) as { type?: unknown }[];
        const types = schema.type === undefined ? choices.map((choice) => choice.type) : [schema.type];
        expect(types.length, `${spec.name}.${field}`).toBeGreaterThan(0);
        for (const type of types)
          expect(['string', 'integer', 'number', 'boolean', 'array', 'object'], `${spec.name}.${field}`).toContain(
            type,
          );
      }
    }
  });

  it('lists required fields from the zod schema (defaults and optionals are not required)', () => {
    const click = specs.find((spec) => spec.name === 'argus_click')!;
    expect(click.inputSchema.required).toEqual(['target']);
    expect(click.inputSchema.properties.timeoutMs).toMatchObject({ type: 'integer', default: 5000 });
    const tabs = specs.find((spec) => spec.name === 'argus_tabs')!;
    expect(tabs.inputSchema).toEqual({ type: 'object', properties: {} });
  });

  it('describes the input side of transforms (the goto url is a string) and drops validation noise', () => {
    const goto = specs.find((spec) => spec.name === 'argus_goto')!;
    expect(goto.inputSchema.properties.url).toMatchObject({ type: 'string' });
    // Schema keywords only: a field may well be called maxItems.
    const keywords = new Set<string>();
    const walk = (schema: unknown): void => {
      if (!schema || typeof schema !== 'object') return;
      for (const [key, value] of Object.entries(schema)) {
        if (key === 'properties') Object.values(value as object).forEach(walk);
        else {
          keywords.add(key);
          walk(value);
        }
      }
    };
    specs.forEach((spec) => walk(spec.inputSchema));
    for (const noise of ['$schema', 'maxLength', 'minLength', 'maximum', 'minimum', 'maxItems', 'propertyNames'])
      expect(keywords).not.toContain(noise);
  });

  it('does not advertise what the adapter answers itself (screenshot base64) or a default of false', () => {
    const screenshot = specs.find((spec) => spec.name === 'argus_screenshot')!;
    expect(screenshot.inputSchema.properties).not.toHaveProperty('base64');
    expect(screenshot.inputSchema.properties.full).toEqual({ type: 'boolean', description: expect.any(String) });
  });

  it('descriptions speak MCP: no CLI flags or `argus` commands; a flag the tool takes is its argument', () => {
    const byName = new Map(specs.map((spec) => [spec.name, spec.description]));
    for (const [name, description] of byName) {
      expect(description, name).not.toMatch(/--[a-z]/);
      expect(description, name).not.toMatch(/`argus /);
    }
    // a CLI stream the tool cannot do is left out
    expect(byName.get('argus_console')).not.toMatch(/follow|stream/i);
    // a flag the tool takes is its argument, a negated one the argument false
    expect(byName.get('argus_route')).toContain('`allTabs`');
    expect(byName.get('argus_state_load')).toContain('`restoreTabs: false`');
    // a client option in parentheses goes, the sentence stays
    expect(byName.get('argus_tab_lease')).toMatch(
      /^Take an exclusive lease on a tab .*until it is released or expires/,
    );
    expect(byName.get('argus_tab_lease')).not.toMatch(/lease-wait|leaseWait|ARGUS_LEASE/);
    // another tool's flag is named as that tool's argument
    expect(byName.get('argus_frame')).toContain('snapshot scope');
    // a CLI command is the tool call
    expect(byName.get('argus_wait')).toContain('`argus_frame`');
    expect(byName.get('argus_tab_each')).not.toContain('The CLI');
  });

  it('marks read-scope commands read-only', () => {
    expect(specs.find((spec) => spec.name === 'argus_snapshot')?.readOnly).toBe(true);
    expect(specs.find((spec) => spec.name === 'argus_click')?.readOnly).toBe(false);
  });

  it('generates from whatever commands it is given (grows with the manifest)', () => {
    const extra = { ...listCommands()[0]!, name: 'extra.thing', tool: 'argus_extra_thing' };
    const grown = allToolSpecs([...listCommands(), extra]);
    expect(grown.map((spec) => spec.name)).toContain('argus_extra_thing');
    expect(inputSchemaFor(extra)).toEqual(inputSchemaFor(listCommands()[0]!));
  });
});

describe('the tool specs the build writes beside the bundled MCP server', () => {
  const file = join(dirname(fileURLToPath(import.meta.url)), '..', 'dist', 'daemon', BUILT_TOOL_SPECS);

  it('are what the manifest gives now (a stale build fails here)', () => {
    expect(JSON.parse(readFileSync(file, 'utf8'))).toEqual(JSON.parse(storedToolSpecs(allToolSpecs())));
  });
});
