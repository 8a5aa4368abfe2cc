#!/usr/bin/env node
// Generates docs/SURFACE.md from the command manifest in @argus/protocol (its built dist).
//   node tooling/scripts/gen-docs.mjs          write docs/SURFACE.md   (pnpm gen)
//   node tooling/scripts/gen-docs.mjs --check  exit 1 if it is stale  (pnpm check:drift)
// Output is deterministic: no dates, commands in manifest order (sorted by contract path).
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';

const root = fileURLToPath(new URL('../../', import.meta.url));
const protocolEntry = join(root, 'packages/protocol/dist/index.js');
const target = join(root, 'docs/SURFACE.md');

/** Prose from the manifest: `<select>` must show as text, not become an HTML tag. */
function prose(text) {
  // Odd parts are inside backticks, where markdown shows characters literally already.
  return String(text)
    .split('`')
    .map((part, i) => (i % 2 === 1 ? part : part.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;')))
    .join('`');
}

/** Markdown table cell: no pipes or newlines may break the row. */
function cell(text) {
  return prose(text)
    .replace(/\|/g, '\\|')
    .replace(/\s*\n\s*/g, ' ')
    .trim();
}

function code(text) {
  return `\`${text}\``;
}

function kebab(name) {
  return name.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`);
}

/** GitHub's heading anchor for a heading that is just `name` in backticks. */
function anchor(name) {
  return `#${name
    .toLowerCase()
    .replace(/[^a-z0-9 _-]/g, '')
    .replace(/ /g, '-')}`;
}

function typeLabel(field) {
  if (field.type === 'enum') return field.values.map(code).join(' \\| ');
  if (field.type === 'array') return `${field.itemType === 'unknown' ? '' : `${field.itemType} `}array`.trim();
  return field.type;
}

function requirement(field) {
  if (!field.optional) return 'required';
  if (field.defaultValue !== undefined) return `default ${code(JSON.stringify(field.defaultValue))}`;
  return 'optional';
}

/** `argus <verb> <positionals> [--flags]`, or undefined when the command has no CLI verb. */
function usage(command, fields) {
  if (command.cli === false) return undefined;
  const byName = new Map(fields.map((field) => [field.name, field]));
  const positionals = (command.cli.positionals ?? []).map((spec) => {
    const name = spec.replace(/\.\.\.$/, '');
    const shown = spec.endsWith('...') ? `${name}...` : name;
    return byName.get(name)?.optional === false ? `<${shown}>` : `[${shown}]`;
  });
  const positionalNames = new Set((command.cli.positionals ?? []).map((spec) => spec.replace(/\.\.\.$/, '')));
  const hasFlags = fields.some((field) => !positionalNames.has(field.name));
  return ['argus', command.cli.verb, ...positionals, ...(hasFlags ? ['[--flags]'] : [])].join(' ');
}

/** How a field is given on the command line: its position, or `--flag` plus any one-letter alias. */
function cliForm(command, field) {
  if (command.cli === false) return '';
  const positionals = (command.cli.positionals ?? []).map((spec) => spec.replace(/\.\.\.$/, ''));
  const index = positionals.indexOf(field.name);
  const aliases = Object.entries(command.cli.aliases ?? {})
    .filter(([, name]) => name === field.name)
    .map(([alias]) => code(`${alias.length > 1 ? '--' : '-'}${alias}`));
  const flag = [code(`--${kebab(field.name)}`), ...aliases].join(', ');
  return index === -1 ? flag : `positional ${index + 1}`;
}

function renderCommand(command, describeInput) {
  const fields = describeInput(command.input);
  const lines = [`## ${code(command.name)}`, ''];
  const line = usage(command, fields);
  lines.push(line ? `${code(line)}` : '_Not available on the CLI._', '');
  lines.push(prose(command.summary), '');
  lines.push(
    `Kind: ${command.kind} · scope: ${command.scope} · agent tool: ${command.tool === false ? 'none' : code(command.tool)}`,
    '',
  );

  lines.push('**Input**', '');
  if (fields.length === 0) {
    lines.push('No input.', '');
  } else {
    const withCli = command.cli !== false;
    lines.push(
      withCli
        ? '| Field | CLI | Type | Required / default | Description |'
        : '| Field | Type | Required / default | Description |',
    );
    lines.push(withCli ? '|---|---|---|---|---|' : '|---|---|---|---|');
    for (const field of fields) {
      const row = [
        code(field.name),
        ...(withCli ? [cliForm(command, field)] : []),
        typeLabel(field),
        requirement(field),
        cell(field.description),
      ];
      lines.push(`| ${row.join(' | ')} |`);
    }
    lines.push('');
  }

  lines.push('**Output**', '');
  const shape = command.output && typeof command.output === 'object' ? command.output.shape : undefined;
  if (shape && typeof shape === 'object') {
    const outputs = describeInput(command.output);
    const untrusted = new Set(command.pageContent ?? []);
    if (outputs.length === 0) lines.push('An empty object.', '');
    else {
      lines.push('| Field | Type | Description |', '|---|---|---|');
      for (const field of outputs) {
        const note = untrusted.has(field.name) ? ' _(page content: untrusted)_' : '';
        lines.push(
          `| ${code(field.name)}${field.optional ? ' (optional)' : ''} | ${typeLabel(field)} | ${cell(field.description)}${note} |`,
        );
      }
      lines.push('');
    }
  } else {
    const kind = command.output?.def?.type ?? command.output?._def?.type ?? 'unknown';
    lines.push(`A single ${kind} value.`, '');
  }

  const examples = command.cli === false ? [] : (command.cli.examples ?? []);
  if (examples.length > 0) lines.push('**Examples**', '', '```sh', ...examples, '```', '');
  return lines.join('\n');
}

export function render({ listCommands, describeInput }) {
  const commands = listCommands();
  const out = [
    '# Argus command surface',
    '',
    '<!-- Generated by tooling/scripts/gen-docs.mjs from packages/protocol. Do not edit: run `pnpm gen`. -->',
    '',
    'Generated from the command manifest in `packages/protocol`: do not edit this file, change the manifest and run `pnpm gen`.',
    'The CLI, the tRPC router and the agent tools are all derived from the same manifest, so what is listed here is the whole public surface.',
    'CLI flags are the input field names in kebab-case (`timeoutMs` is `--timeout-ms`).',
    '',
    `${commands.length} command${commands.length === 1 ? '' : 's'}.`,
    '',
    '| Command | CLI verb | Tool | Kind | Scope | Summary |',
    '|---|---|---|---|---|---|',
  ];
  for (const command of commands) {
    const verb = command.cli === false ? '—' : code(`argus ${command.cli.verb}`);
    const tool = command.tool === false ? '—' : code(command.tool);
    out.push(
      `| [${code(command.name)}](${anchor(command.name)}) | ${verb} | ${tool} | ${command.kind} | ${command.scope} | ${cell(command.summary)} |`,
    );
  }
  out.push('');
  for (const command of commands) out.push(renderCommand(command, describeInput));
  return `${out.join('\n').replace(/\n+$/, '')}\n`;
}

async function main() {
  const { check } = parseArgs({ options: { check: { type: 'boolean', default: false } } }).values;
  if (!existsSync(protocolEntry)) {
    console.error(
      `${relative(root, protocolEntry)} is missing: build the protocol first with \`pnpm --filter @argus/protocol build\`.`,
    );
    process.exit(1);
  }
  const protocol = await import(pathToFileURL(protocolEntry).href);
  const text = render(protocol);
  const shown = relative(root, target);
  if (check) {
    const current = existsSync(target) ? readFileSync(target, 'utf8') : '';
    if (current !== text) {
      console.error(`${shown} is out of date: run pnpm gen`);
      process.exit(1);
    }
    console.log(`${shown} is up to date`);
    return;
  }
  mkdirSync(dirname(target), { recursive: true });
  writeFileSync(target, text);
  console.log(`wrote ${shown} (${protocol.listCommands().length} commands)`);
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) await main();
