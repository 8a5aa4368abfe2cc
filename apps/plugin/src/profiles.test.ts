import { listCommands } from '@argus/protocol';
import { describe, expect, it } from 'vitest';
import { mcpTool } from './mcp-server.js';
import { CORE_HIDDEN_FIELDS, CORE_TOOLS, RESEARCH_TOOLS, selectTools } from './profiles.js';
import { allToolSpecs } from './tool-specs.js';

const specs = allToolSpecs();
const names = (selected: { name: string }[]) => selected.map((spec) => spec.name);

describe('tool profiles', () => {
  it('design lists every canvas command and the browser tools to look at it, and no input tools', () => {
    const design = names(selectTools(specs, { profile: 'design' }));
    expect(design.filter((name) => name.startsWith('argus_canvas_')).sort()).toEqual(
      specs
        .map((spec) => spec.name)
        .filter((name) => name.startsWith('argus_canvas_'))
        .sort(),
    );
    expect(design).toContain('argus_canvas_patch');
    expect(design).toContain('argus_screenshot');
    expect(design).not.toContain('argus_click');
  });

  it('research lists the web providers present in the manifest (fetch among them) and no input tools', () => {
    const research = names(selectTools(specs, { profile: 'research' }));
    expect(research).toEqual(specs.map((spec) => spec.name).filter((name) => RESEARCH_TOOLS.includes(name)));
    expect(research).toContain('argus_fetch');
    expect(research).not.toContain('argus_click');
  });

  it('core is the CORE_TOOLS names present in the manifest, and the default', () => {
    const core = names(selectTools(specs, { profile: 'core' }));
    expect(core).toEqual(specs.map((spec) => spec.name).filter((name) => CORE_TOOLS.includes(name)));
    for (const tool of [
      'argus_goto',
      'argus_snapshot',
      'argus_click',
      'argus_fill',
      'argus_type',
      'argus_press',
      'argus_select',
      'argus_text',
      'argus_screenshot',
      'argus_tabs',
      'argus_eval',
      'argus_wait',
      // an ordinary form + navigation task also needs these (Playwright MCP's default set has them)
      'argus_upload',
      'argus_hover',
      'argus_back',
      'argus_reload',
      'argus_dialog_accept',
      'argus_dialog_dismiss',
      'argus_closetab',
    ]) {
      expect(core).toContain(tool);
    }
    expect(names(selectTools(specs))).toEqual(core);
  });

  it('core leaves tuning fields (tab, timeoutMs) out of the listed schemas; full and --tools keep them', () => {
    const coreClick = selectTools(specs, { profile: 'core' }).find((spec) => spec.name === 'argus_click')!;
    for (const field of CORE_HIDDEN_FIELDS) expect(coreClick.inputSchema.properties).not.toHaveProperty(field);
    expect(coreClick.inputSchema.required).toEqual(['target']);
    expect(coreClick.command.input.shape).toHaveProperty('tab');
    expect(
      selectTools(specs, { profile: 'full' }).find((spec) => spec.name === 'argus_click')!.inputSchema.properties,
    ).toHaveProperty('tab');
    expect(selectTools(specs, { tools: ['click'] })[0]!.inputSchema.properties).toHaveProperty('timeoutMs');
  });

  it('core stays under 2,000 tokens (chars / 4 of the tools/list result)', () => {
    const listed = { tools: selectTools(specs, { profile: 'core' }).map(mcpTool) };
    expect(JSON.stringify(listed).length / 4).toBeLessThan(2_000);
  });

  it('core skips names the manifest does not have yet', () => {
    const withoutConsole = specs.filter((spec) => spec.name !== 'argus_console');
    expect(names(selectTools(withoutConsole, { profile: 'core' }))).not.toContain('argus_console');
  });

  it('full is every tool in the manifest', () => {
    expect(selectTools(specs, { profile: 'full' })).toHaveLength(
      listCommands().filter((command) => command.tool !== false && command.kind !== 'subscription').length,
    );
  });

  it('--tools picks by full or short name, accepts profile names, and overrides the profile', () => {
    expect(names(selectTools(specs, { profile: 'full', tools: ['click', 'argus_fill'] }))).toEqual([
      'argus_click',
      'argus_fill',
    ]);
    const coreAndHover = names(selectTools(specs, { tools: ['core', 'drag'] }));
    expect(coreAndHover).toContain('argus_drag');
    expect(coreAndHover).toContain('argus_snapshot');
  });

  it('unknown tool names fail with invalid_input naming them and what exists', () => {
    expect(() => selectTools(specs, { tools: ['click', 'teleport'] })).toThrowError(
      expect.objectContaining({
        code: 'invalid_input',
        message: expect.stringMatching(/Unknown tool teleport\. Available: .*argus_click/),
      }),
    );
  });
});
