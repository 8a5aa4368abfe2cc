import { ArgusError, commandByName, commandByVerb, type Handlers } from '@argus/protocol';
import type { StoredRow } from '../journal/journal-db.js';
import { outputTarget, writeTarget } from '../output-path.js';
import type { Services } from '../services.js';

const UNIT_MS: Record<string, number> = { s: 1_000, m: 60_000, h: 3_600_000, d: 86_400_000 };

/** `30m` -> the epoch millisecond 30 minutes ago (the schema checked the form). */
function sinceMs(window: string | undefined): number | undefined {
  if (window === undefined) return undefined;
  const match = /^(\d+)([smhd])$/.exec(window);
  return match ? Date.now() - Number(match[1]) * (UNIT_MS[match[2] as string] ?? 0) : undefined;
}

/** A contract path, or a CLI verb (`click`, `network get`) turned into one. */
function commandName(given: string | undefined): string | undefined {
  if (given === undefined) return undefined;
  if (commandByName(given)) return given;
  const byVerb = commandByVerb(given);
  if (byVerb) return byVerb.name;
  throw new ArgusError(
    'invalid_input',
    `"${given}" is neither a command (input.click) nor a CLI verb (click). \`argus --help\` lists them.`,
  );
}

function entry(row: StoredRow) {
  return { ...row, at: new Date(row.ts).toISOString() };
}

export function journalHandlers(services: Services): Handlers['journal'] {
  const { journal } = services;
  const read = async (input: {
    since?: string | undefined;
    command?: string | undefined;
    errors: boolean;
    session?: string | undefined;
    limit: number;
  }) => {
    const rows = await journal.read({
      sinceMs: sinceMs(input.since),
      command: commandName(input.command),
      errors: input.errors,
      session: input.session,
      limit: input.limit,
    });
    if (!rows)
      throw new ArgusError(
        'journal_unavailable',
        `The journal cannot be read: ${journal.state().error ?? 'not open'}. Check ${journal.path} (a file, writable by the daemon) and restart the daemon; commands run meanwhile but are not recorded.`,
      );
    return rows.map(entry);
  };
  return {
    async list(input) {
      return { entries: await read(input), journal: journal.state() };
    },
    async export(input, ctx) {
      const entries = await read(input);
      const jsonl = entries.map((row) => `${JSON.stringify(row)}\n`).join('');
      if (input.out === undefined) return { count: entries.length, path: null, jsonl };
      const target = outputTarget(services, ctx, input.out, {
        stem: 'journal',
        ext: 'jsonl',
        overwrite: input.overwrite,
      });
      // the journal's URLs and inputs are the operator's: the export is private like the file
      await writeTarget(target, jsonl, 0o600);
      return { count: entries.length, path: target.path, jsonl: null };
    },
  };
}
