import { statSync } from 'node:fs';
import { join } from 'node:path';
import { ArgusError } from '@argus/protocol';
import {
  type ArgusConfig,
  type LoadedConfig,
  configKey,
  configKeys,
  deletePath,
  getPath,
  loadConfig,
  parseConfigValue,
  readConfigFile,
  setPath,
  validateLayer,
  writeConfigFile,
} from '@argus/protocol/config';
import type { Logger } from '../logger.js';

/** Keys whose values are credentials. */
const SECRET_KEY = /apiKey$/i;

function masked(value: string): string {
  return value.length > 8 ? `${value.slice(0, 2)}…${value.slice(-2)} (${value.length} chars)` : '(set)';
}

export type ConfigSource = 'default' | 'user' | 'project' | 'env' | 'flags';

export interface ConfigEntry {
  key: string;
  value: unknown;
  source: ConfigSource;
  where: string | null;
  env: string | null;
  description: string;
}

/**
 * The daemon's view of the configuration. Files are re-read when their mtime changes (a stat per
 * call, no watcher), so `policy.*` edits apply to the next command; browser keys apply at start.
 * A file made invalid while running keeps the last good configuration (and is logged).
 */
export class ConfigStore {
  private loaded: LoadedConfig;
  private stamp: string;

  constructor(
    private readonly workspace: string,
    private readonly env: NodeJS.ProcessEnv,
    private log?: Logger,
  ) {
    this.loaded = loadConfig({ workspace, env });
    this.stamp = this.fileStamp();
  }

  /** The log exists only once the state dir is known, after the first load. */
  attachLog(log: Logger): void {
    this.log = log;
  }

  get files(): LoadedConfig['files'] {
    return this.loaded.files;
  }

  /** The current configuration (re-read if a file changed). */
  current(): ArgusConfig {
    const stamp = this.fileStamp();
    if (stamp !== this.stamp) {
      this.stamp = stamp;
      try {
        this.loaded = loadConfig({ workspace: this.workspace, env: this.env });
        this.log?.info('config.reloaded', { files: this.loaded.files });
      } catch (error) {
        this.log?.error('config.invalid', { message: (error as Error).message });
      }
    }
    return this.loaded.config;
  }

  /** Built-in defaults, shown by `config list` for keys nobody set. */
  defaults(): Record<string, unknown> {
    return {
      stateDir: join(this.workspace, '.argus'),
      workspace: this.workspace,
      'chrome.headless': true,
      'chrome.flags': [],
      idleTimeoutMs: 30 * 60_000,
      captureCapacity: 5_000,
      maxParallelCommands: 8,
      'relay.port': 8787,
      'mcp.profile': 'core',
      'policy.approve.timeoutMs': 120_000,
    };
  }

  entry(key: string): ConfigEntry {
    const spec = configKey(key);
    const config = this.current();
    const value = getPath(config as Record<string, unknown>, key);
    const source = this.loaded.sources.get(key);
    const fallback = this.defaults()[key];
    return {
      key,
      // a secret (an API key) is shown as set, never echoed: config list output ends up in logs and chats
      value: SECRET_KEY.test(key) && typeof value === 'string' ? masked(value) : (value ?? fallback ?? null),
      source: value === undefined ? 'default' : (source?.layer ?? 'default'),
      where: value === undefined ? null : (source?.where ?? null),
      env: spec.env ?? null,
      description: spec.description,
    };
  }

  entries(): ConfigEntry[] {
    return configKeys().map((spec) => this.entry(spec.key));
  }

  /** Sets or removes `key` in the project (or user) file, validated before it is written (0600). */
  write(key: string, value: unknown, options: { user: boolean; unset: boolean }): { file: string; value: unknown } {
    configKey(key);
    const file = options.user ? this.loaded.files.user : this.loaded.files.project;
    let raw: Record<string, unknown>;
    try {
      raw = readConfigFile(file);
    } catch (error) {
      throw new ArgusError('invalid_input', (error as Error).message, { details: { file } });
    }
    let stored: unknown = null;
    if (options.unset) deletePath(raw, key);
    else {
      if (value === undefined)
        throw new ArgusError(
          'invalid_input',
          `Give a value for ${key} (or --unset to remove it), e.g. \`argus config set ${key} <value>\`.`,
        );
      stored = typeof value === 'string' ? parseConfigValue(key, value) : value;
      setPath(raw, key, stored);
    }
    validateLayer(raw, file, `The value for ${key} was not written.`);
    writeConfigFile(file, raw);
    this.stamp = '';
    this.current();
    this.log?.info('config.set', { key, file, unset: options.unset });
    return { file, value: stored };
  }

  /**
   * Runs on every call: a missing file (the usual case for one of the two) is answered without an
   * exception, which costs several times the stat itself.
   */
  private fileStamp(): string {
    return `${stampOf(this.loaded?.files.user)}|${stampOf(this.loaded?.files.project)}`;
  }
}

function stampOf(file: string | undefined): string {
  try {
    const stat = file ? statSync(file, { throwIfNoEntry: false }) : undefined;
    return stat ? `${stat.mtimeMs}:${stat.size}` : '-';
  } catch {
    // unreadable (a directory component is not one): counts as absent, as before
    return '-';
  }
}
