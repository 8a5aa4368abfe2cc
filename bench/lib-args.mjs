// The benches' command-line options, read with node:util parseArgs like every other Argus command line.
import { parseArgs } from 'node:util';

/**
 * Reads `--name value` / `--name=value` / `--switch` options. `defaults` names every option the bench
 * takes with its default: a number or string takes a value (a number is checked), a boolean is a
 * switch. An unknown option or a stray argument is refused (a typo never runs the wrong bench).
 * @template {Record<string, number | string | boolean>} T
 * @param {T} defaults
 * @param {string[]} [argv]
 * @returns {T}
 */
export function benchOptions(defaults, argv = process.argv.slice(2)) {
  const options = Object.fromEntries(
    Object.entries(defaults).map(([name, fallback]) => [
      name,
      { type: typeof fallback === 'boolean' ? 'boolean' : 'string' },
    ]),
  );
  const { values } = parseArgs({ args: argv, options, strict: true, allowPositionals: false });
  const read = Object.entries(defaults).map(([name, fallback]) => {
    const raw = values[name];
    if (raw === undefined) return [name, fallback];
    if (typeof fallback !== 'number') return [name, raw];
    const value = Number(raw);
    if (String(raw).trim() === '' || !Number.isFinite(value)) throw new Error(`--${name} takes a number, got "${raw}"`);
    return [name, value];
  });
  return /** @type {T} */ (Object.fromEntries(read));
}
