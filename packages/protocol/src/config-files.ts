import { chmodSync, existsSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { makeDirs } from './make-dirs.js';

/**
 * The lean half of the configuration: where the files are, the environment variable of each key,
 * reading and layering raw JSON. No zod here, so the CLI can find its state dir in a few
 * milliseconds; `@argus/protocol/config` validates.
 */

export type ConfigLayer = 'default' | 'user' | 'project' | 'env' | 'flags';
export type RawConfig = Record<string, unknown>;

/** How an environment variable's text becomes a config value. */
export type EnvKind = 'string' | 'number' | 'boolean' | 'words' | 'list' | 'paths';

/** Every environment variable Argus reads and the config key it sets (env beats the files). */
export const CONFIG_ENV: ReadonlyArray<{ env: string; key: string; kind: EnvKind }> = [
  { env: 'ARGUS_STATE_DIR', key: 'stateDir', kind: 'string' },
  { env: 'ARGUS_WORKSPACE', key: 'workspace', kind: 'string' },
  { env: 'CHROME_PATH', key: 'chrome.path', kind: 'string' },
  { env: 'ARGUS_CHROME_FLAGS', key: 'chrome.flags', kind: 'words' },
  { env: 'ARGUS_HEADLESS', key: 'chrome.headless', kind: 'boolean' },
  { env: 'ARGUS_CDP_URL', key: 'chrome.cdpUrl', kind: 'string' },
  { env: 'ARGUS_POOL', key: 'pool.endpoints', kind: 'words' },
  { env: 'ARGUS_PROFILE', key: 'chrome.profile', kind: 'string' },
  { env: 'ARGUS_IDLE_TIMEOUT_MS', key: 'idleTimeoutMs', kind: 'number' },
  { env: 'ARGUS_CAPTURE_CAPACITY', key: 'captureCapacity', kind: 'number' },
  { env: 'ARGUS_MAX_PARALLEL_COMMANDS', key: 'maxParallelCommands', kind: 'number' },
  { env: 'ARGUS_RELAY_PORT', key: 'relay.port', kind: 'number' },
  { env: 'ARGUS_MCP_PROFILE', key: 'mcp.profile', kind: 'string' },
  { env: 'ARGUS_MCP_TOOLS', key: 'mcp.tools', kind: 'list' },
  { env: 'ARGUS_ALLOWED_ROOTS', key: 'files.allowedRoots', kind: 'paths' },
  { env: 'ARGUS_ALLOW_FILE_URLS', key: 'files.allowFileUrls', kind: 'boolean' },
  { env: 'ARGUS_SEARCH_ENGINE', key: 'providers.search.engine', kind: 'string' },
  { env: 'ARGUS_SEARXNG_URL', key: 'providers.search.searxngUrl', kind: 'string' },
  { env: 'ARGUS_BRAVE_API_KEY', key: 'providers.search.braveApiKey', kind: 'string' },
  { env: 'ARGUS_BRAVE_URL', key: 'providers.search.braveUrl', kind: 'string' },
  { env: 'ARGUS_DUCKDUCKGO_URL', key: 'providers.search.duckduckgoUrl', kind: 'string' },
];

/** Set by the CLI for a daemon it starts: the `-c key=value` flags as a JSON object (top layer). */
export const CONFIG_FLAGS_ENV = 'ARGUS_CONFIG_FLAGS';

export const CONFIG_FILE = 'config.json';

/** `$XDG_CONFIG_HOME/argus/config.json`, else `~/.config/argus/config.json`. */
export function userConfigFile(env: NodeJS.ProcessEnv = process.env): string {
  const base = env.XDG_CONFIG_HOME?.trim() || join(env.HOME?.trim() || homedir(), '.config');
  return join(base, 'argus', CONFIG_FILE);
}

/**
 * The project's file: the `config.json` beside the state dir the daemon uses. That is
 * `<workspace>/.argus/config.json`, unless `ARGUS_STATE_DIR` names a state dir that holds a
 * `config.json` of its own (another project's `.argus`): then that project's file applies, not the
 * one of the directory the daemon happened to be started from. A state dir moved by the `stateDir`
 * key has no file of its own, so the file that named it stays the project file.
 */
export function projectConfigFile(workspace: string, env: NodeJS.ProcessEnv = {}): string {
  const stateDir = env.ARGUS_STATE_DIR?.trim();
  if (stateDir) {
    const beside = join(resolve(stateDir), CONFIG_FILE);
    if (existsSync(beside)) return beside;
  }
  return join(workspace, '.argus', CONFIG_FILE);
}

export class ConfigFileError extends Error {
  constructor(
    readonly file: string,
    message: string,
  ) {
    super(message);
  }
}

/** The JSON object in `file`, or `{}` when it does not exist. */
export function readConfigFile(file: string): RawConfig {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return {};
    throw new ConfigFileError(file, `Cannot read the config file ${file}: ${(error as Error).message}.`);
  }
  if (!text.trim()) return {};
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    throw new ConfigFileError(
      file,
      `The config file ${file} is not valid JSON (${(error as Error).message}). Fix it or delete it.`,
    );
  }
  if (!isPlainObject(parsed))
    throw new ConfigFileError(
      file,
      `The config file ${file} must hold a JSON object such as {"chrome": {"headless": false}}.`,
    );
  return parsed;
}

/** Writes `config` to `file` atomically with mode 0600 (its directory 0700). */
export function writeConfigFile(file: string, config: RawConfig): void {
  makeDirs(dirname(file), 0o700);
  const temp = `${file}.${process.pid}.tmp`;
  writeFileSync(temp, `${JSON.stringify(config, null, 2)}\n`, { mode: 0o600 });
  chmodSync(temp, 0o600);
  renameSync(temp, file);
}

export function envValue(kind: EnvKind, text: string): unknown {
  switch (kind) {
    case 'number': {
      const value = Number(text);
      return text.trim() !== '' && Number.isFinite(value) ? value : text;
    }
    case 'boolean':
      if (/^(1|true|yes|on)$/i.test(text)) return true;
      if (/^(0|false|no|off)$/i.test(text)) return false;
      return text;
    case 'words':
      return text.split(/\s+/).filter(Boolean);
    case 'list':
      return text
        .split(',')
        .map((item) => item.trim())
        .filter(Boolean);
    case 'paths':
      return text
        .split(':')
        .map((item) => item.trim())
        .filter(Boolean);
    default:
      return text;
  }
}

/** The environment layer: one entry per set (non-empty) variable, keyed by config key. */
export function envLayer(env: NodeJS.ProcessEnv): { config: RawConfig; sources: Map<string, string> } {
  const config: RawConfig = {};
  const sources = new Map<string, string>();
  for (const { env: name, key, kind } of CONFIG_ENV) {
    const text = env[name];
    if (text === undefined || text.trim() === '') continue;
    setPath(config, key, envValue(kind, text));
    sources.set(key, name);
  }
  return { config, sources };
}

/** The flags layer the CLI hands a daemon it starts (`ARGUS_CONFIG_FLAGS`). */
export function flagsFromEnv(env: NodeJS.ProcessEnv): RawConfig {
  const text = env[CONFIG_FLAGS_ENV];
  if (!text) return {};
  try {
    const parsed: unknown = JSON.parse(text);
    return isPlainObject(parsed) ? parsed : {};
  } catch {
    return {};
  }
}

export function isPlainObject(value: unknown): value is RawConfig {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export function getPath(config: RawConfig, key: string): unknown {
  let current: unknown = config;
  for (const part of key.split('.')) {
    if (!isPlainObject(current) || !Object.hasOwn(current, part)) return undefined;
    current = current[part];
  }
  return current;
}

export function setPath(config: RawConfig, key: string, value: unknown): void {
  const parts = key.split('.');
  let current = config;
  for (const part of parts.slice(0, -1)) {
    const next = current[part];
    if (!isPlainObject(next)) current[part] = {};
    current = current[part] as RawConfig;
  }
  current[parts.at(-1)!] = value;
}

/** Removes `key`, and parents left empty by it. */
export function deletePath(config: RawConfig, key: string): void {
  const parts = key.split('.');
  const parents: RawConfig[] = [config];
  for (const part of parts.slice(0, -1)) {
    const next = parents.at(-1)![part];
    if (!isPlainObject(next)) return;
    parents.push(next);
  }
  delete parents.at(-1)![parts.at(-1)!];
  for (let index = parents.length - 1; index > 0; index -= 1) {
    if (Object.keys(parents[index]!).length) break;
    delete parents[index - 1]![parts[index - 1]!];
  }
}

/** Objects merge key by key; anything else (numbers, strings, lists) in `over` replaces `base`. */
export function mergeConfig(base: RawConfig, over: RawConfig): RawConfig {
  const out: RawConfig = { ...base };
  for (const [key, value] of Object.entries(over)) {
    const current = out[key];
    out[key] = isPlainObject(current) && isPlainObject(value) ? mergeConfig(current, value) : value;
  }
  return out;
}

/**
 * The state dir without validating anything (the CLI's fast path): flags, env, project file, user
 * file, else `<workspace>/.argus`.
 */
export function quickStateDir(
  workspace: string,
  env: NodeJS.ProcessEnv = process.env,
  flags: RawConfig = {},
): string | undefined {
  const fromFlags = getPath(flags, 'stateDir');
  if (typeof fromFlags === 'string' && fromFlags) return fromFlags;
  const fromEnv = env.ARGUS_STATE_DIR?.trim();
  if (fromEnv) return fromEnv;
  for (const file of [projectConfigFile(workspace), userConfigFile(env)]) {
    try {
      const value = getPath(readConfigFile(file), 'stateDir');
      if (typeof value === 'string' && value) return value;
    } catch {
      // a broken file is reported by the daemon, which validates; the CLI just falls back
    }
  }
  return undefined;
}
