// Writes src/generated/commands.json from the manifest, so the CLI knows every verb, argument and
// flag without loading zod at start-up (zod alone costs ~60 ms per process here).
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describeInput, listCommands } from '@argus/protocol';

const here = dirname(fileURLToPath(import.meta.url));
const commands = listCommands().map((command) => ({
  name: command.name,
  cli: command.cli,
  tool: command.tool,
  kind: command.kind,
  scope: command.scope,
  summary: command.summary,
  pageContent: command.pageContent ?? [],
  fields: describeInput(command.input).map(({ name, type, optional, defaultValue, description, values, itemType }) => ({
    name,
    type,
    optional,
    defaultValue: defaultValue === undefined ? null : defaultValue,
    description,
    values,
    itemType,
  })),
}));
const out = join(here, '..', 'src', 'generated', 'commands.json');
mkdirSync(dirname(out), { recursive: true });
writeFileSync(out, `${JSON.stringify(commands, null, 1)}\n`);
// every verb and alias as typed (`goto`, `open`, `config get`): the CLI's first module reads this
// small list to start the daemon early only for a command that exists (never for `argus config`
// alone or a typo)
const verbs = commands.flatMap(({ cli }) => (cli ? [cli.verb, ...(cli.verbAliases ?? [])] : []));
writeFileSync(join(dirname(out), 'verbs.json'), `${JSON.stringify([...new Set(verbs)].sort())}\n`);
