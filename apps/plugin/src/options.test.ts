import { describe, expect, it } from 'vitest';
import { parseOptions } from './options.js';

describe('argus-mcp options', () => {
  it('defaults: core profile, envelope on', () => {
    expect(parseOptions([], {})).toEqual({
      profile: 'core',
      tools: undefined,
      untrustedEnvelope: true,
      keepBrowser: false,
      session: undefined,
      help: false,
    });
    expect(parseOptions(['--session', 'shop'], {}).session).toBe('shop');
    expect(parseOptions([], { ARGUS_SESSION: 'shop' }).session).toBe('shop');
  });
  it('flags, inline values, and env fallbacks', () => {
    expect(parseOptions(['--profile', 'full'], {}).profile).toBe('full');
    expect(parseOptions(['--profile=full'], {}).profile).toBe('full');
    expect(parseOptions(['--tools', 'click, fill,'], {}).tools).toEqual(['click', 'fill']);
    expect(parseOptions([], { ARGUS_MCP_PROFILE: 'full', ARGUS_MCP_TOOLS: 'snapshot' })).toMatchObject({
      profile: 'full',
      tools: ['snapshot'],
    });
    expect(parseOptions(['--profile', 'core'], { ARGUS_MCP_PROFILE: 'full' }).profile).toBe('core');
    expect(parseOptions(['--no-untrusted-envelope'], {}).untrustedEnvelope).toBe(false);
    expect(parseOptions(['--untrusted-envelope=false'], {}).untrustedEnvelope).toBe(false);
    expect(parseOptions(['--untrusted-envelope'], {}).untrustedEnvelope).toBe(true);
    expect(parseOptions(['-h'], {}).help).toBe(true);
    expect(parseOptions(['--keep-browser'], {}).keepBrowser).toBe(true);
    expect(parseOptions([], { ARGUS_MCP_KEEP_BROWSER: '1' }).keepBrowser).toBe(true);
  });
  it('bad input is invalid_input with a sentence', () => {
    expect(() => parseOptions(['--profile', 'huge'], {})).toThrowError(/Unknown profile "huge"; use core or full/);
    expect(() => parseOptions(['--tools'], {})).toThrowError(/--tools needs a value/);
    expect(() => parseOptions(['--bogus'], {})).toThrowError(/Unknown option --bogus/);
  });
});
