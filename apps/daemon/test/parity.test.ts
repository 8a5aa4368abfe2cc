import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type AnyCommand, describeInput, listCommands, manifest } from '@argus/protocol';
import { buildRouter } from '@argus/protocol/router';
import { authorizeToken } from '@argus/security';
import { describe, expect, it, onTestFinished } from 'vitest';
import { createHandlers } from '../src/handlers/index.js';
import type { Services } from '../src/services.js';

/**
 * Surface parity: every manifest command reaches every surface. Adding a command without a CLI
 * verb, an agent tool (or a reviewed reason for none), a handler or a line in docs/SURFACE.md
 * fails here. Fix the command, or extend an allowlist below with its reason in the same change.
 */

/** Commands deliberately missing from the CLI. Keep empty unless there is a strong reason. */
const CLI_EXEMPT: Readonly<Record<string, string>> = {
  'web.crawlProgress': '`argus crawl` follows it itself and prints the progress on stderr',
};

/** Commands with `tool: false`, each with the reason agents do not get it. Reviewed list: keep it short. */
const TOOL_EXEMPT: Readonly<Record<string, string>> = {
  'capture.consoleFollow': 'a stream until Ctrl-C; agents poll argus_console instead',
  'capture.networkFollow': 'a stream until Ctrl-C; agents poll argus_network instead',
  'canvas.updates': 'a binary Yjs feed for programs keeping a live replica; agents read argus_canvas_show',
  'canvas.push': 'a binary Yjs update from a replica; agents change documents with argus_canvas_patch',
  'read.html': 'raw HTML is large; agents read argus_text or argus_snapshot',
  'daemon.status': 'operator diagnostics',
  'daemon.stop': 'daemon lifecycle belongs to the operator',
  'daemon.restart': 'daemon lifecycle belongs to the operator; the agent would lose its own connection',
  'session.disconnect': 'letting go of the browser is an operator decision, like session.connect',
  'page.focus': "a headless tab needs no focus to be driven; bringing the user's window forward is the operator's call",
  'page.forward': 'rare; argus_goto and argus_back cover navigation',
  'page.scroll': 'actions scroll their target into view themselves',
  'page.url': 'every navigation and snapshot result carries the URL',
  'read.title': 'every navigation and snapshot result carries the title',
  'session.connect': 'switching browsers is an operator decision',
  'session.pair': 'pairing the extension is an operator decision',
  'state.cookieImportBrowser': "reads the operator's own logged-in browser: an operator decision, never an agent's",
  'token.create': 'minting tokens is an admin operation',
  'token.share': 'sharing the browser with a remote agent is an operator decision',
  'token.list': "tokens are the operator's business",
  'token.revoke': 'revoking tokens is an operator decision',
  'config.get': 'configuration belongs to the operator',
  'config.list': 'configuration belongs to the operator',
  'config.set': 'configuration (incl. the policy) belongs to the operator',
  'approvals.watch':
    'a stream until Ctrl-C for the operator; argus-mcp watches it itself to ask its user (elicitation), agents poll argus_approvals',
  'approvals.approve': 'an agent must never approve its own command',
  'approvals.deny': 'approvals are the operator deciding about the agent',
  'cdp.send': 'raw CDP is admin-only, for operators',
  'web.artifactShow':
    'argus_crawl answers with the bundle and its summary, argus_artifacts lists them; agents need no second view',
  'web.artifactCleanup': 'deleting bundles is housekeeping for the operator',
  'web.crawlProgress': 'a stream for the CLI; argus_crawl returns the totals when it is done',
  'journal.list': "the journal is the operator's record of every client's commands; agents have their own results",
  'journal.export': 'exporting the journal is an operator task',
  'profile.list': 'which browser profile runs is an operator decision (--profile at start)',
  'profile.rm': "deleting a profile's logins is an operator decision",
  'skill.rm': "deleting a project's or user's skill file is the operator's decision, not an agent's",
  'skill.test': 'agents replay through skill_<name> tools and argus_skill_run {start: true}, the same replay',
  'inbox.list': 'agents read the inbox with argus_inbox (consumes); listing read items is for the operator',
  'inbox.show': 'agents get whole items from argus_inbox; showing an item again by id is for the operator',
  'inbox.clear': "deleting the person's annotations is the operator's decision, not an agent's",
  'inbox.watch':
    'a stream until Ctrl-C for the operator; argus-mcp watches it itself and tells its agent in the next tool response',
};

const commands = listCommands();
const surface = readFileSync(fileURLToPath(new URL('../../../docs/SURFACE.md', import.meta.url)), 'utf8');

/**
 * Services for building the handlers without a daemon: real paths (in a temp dir), everything else a
 * harmless stub. Handler factories must not touch the browser when they are built.
 */
function stubServices(dir: string): Services {
  const stub: unknown = new Proxy(function stub() {}, {
    get: (_target, key) => (key === 'then' ? undefined : key === Symbol.toPrimitive ? () => 'stub' : stub),
    apply: () => stub,
    construct: () => stub as object,
  });
  const real: Record<string, unknown> = {
    version: '0.0.0-parity',
    workspace: dir,
    stateDir: join(dir, '.argus'),
    logFile: join(dir, '.argus', 'daemon.log'),
    startedAt: Date.now(),
    idleTimeoutMs: 0,
    requestStop: () => undefined,
  };
  return new Proxy(real, {
    get: (target, key) => (typeof key === 'string' && key in target ? target[key] : stub),
  }) as unknown as Services;
}

function missing(check: (command: AnyCommand) => boolean): string[] {
  return commands.filter((command) => !check(command)).map((command) => command.name);
}

describe('surface parity (every manifest command, every surface)', () => {
  it('the manifest is not empty and contract paths match their namespace and key', () => {
    expect(commands.length).toBeGreaterThan(20);
    const paths = Object.entries(manifest).flatMap(([namespace, group]) =>
      Object.entries(group).map(([key, command]) => [`${namespace}.${key}`, (command as AnyCommand).name]),
    );
    expect(paths.filter(([path, name]) => path !== name)).toEqual([]);
  });

  it('every command has a CLI verb (or a documented exemption); verbs are unique', () => {
    expect(missing((command) => command.cli !== false || command.name in CLI_EXEMPT)).toEqual([]);
    const verbs = commands.flatMap((command) => (command.cli === false ? [] : [command.cli.verb]));
    expect(verbs.filter((verb, index) => verbs.indexOf(verb) !== index)).toEqual([]);
    expect(
      Object.keys(CLI_EXEMPT).filter((name) => commands.find((command) => command.name === name)?.cli !== false),
    ).toEqual([]);
  });

  it('every command has an agent tool or a reviewed reason for none; tool names are unique', () => {
    expect(missing((command) => command.tool !== false || command.name in TOOL_EXEMPT)).toEqual([]);
    const tools = commands.flatMap((command) => (command.tool === false ? [] : [command.tool]));
    expect(tools.filter((tool) => !/^argus_[a-z][a-z0-9_]*$/.test(tool))).toEqual([]);
    expect(tools.filter((tool, index) => tools.indexOf(tool) !== index)).toEqual([]);
    // no stale entries: an exempted command must exist and still have tool: false
    expect(
      Object.keys(TOOL_EXEMPT).filter((name) => commands.find((command) => command.name === name)?.tool !== false),
    ).toEqual([]);
    // streams cannot be MCP tools at all; of the rest, at most a quarter may go without one
    const exemptCalls = Object.keys(TOOL_EXEMPT).filter(
      (name) => commands.find((command) => command.name === name)?.kind !== 'subscription',
    );
    expect(exemptCalls.length).toBeLessThanOrEqual(
      Math.ceil(commands.filter((command) => command.kind !== 'subscription').length / 4),
    );
  });

  it('every command has a handler: the daemon builds a router procedure for each', () => {
    const dir = mkdtempSync(join(tmpdir(), 'argus-parity-'));
    onTestFinished(() => rmSync(dir, { recursive: true, force: true }));
    const handlers = createHandlers(stubServices(dir)) as unknown as Record<string, Record<string, unknown>>;
    expect(
      missing((command) => {
        const [namespace, key] = command.name.split('.') as [string, string];
        return typeof handlers[namespace]?.[key] === 'function';
      }),
    ).toEqual([]);
    const router = buildRouter(createHandlers(stubServices(dir)), { authorize: authorizeToken });
    const procedures = (router as unknown as { _def: { procedures: Record<string, unknown> } })._def.procedures;
    expect(missing((command) => command.name in procedures)).toEqual([]);
    expect(Object.keys(procedures).sort()).toEqual(commands.map((command) => command.name).sort());
  });

  it('every command is documented in docs/SURFACE.md (run `pnpm gen` after changing the manifest)', () => {
    expect(missing((command) => surface.includes(`## \`${command.name}\`\n`))).toEqual([]);
    expect(missing((command) => command.cli === false || surface.includes(`\`argus ${command.cli.verb}`))).toEqual([]);
    expect(missing((command) => command.tool === false || surface.includes(`\`${command.tool}\``))).toEqual([]);
    const documented = [...surface.matchAll(/^## `([\w.]+)`$/gm)].map((match) => match[1]);
    expect(documented.filter((name) => !commands.some((command) => command.name === name))).toEqual([]);
    expect(surface).toContain(`${commands.length} commands.`);
  });

  it('every input field is described for agents and the CLI help', () => {
    const undescribed = commands.flatMap((command) =>
      describeInput(command.input)
        .filter((field) => !field.description.trim())
        .map((field) => `${command.name}.${field.name}`),
    );
    expect(undescribed).toEqual([]);
  });
});
