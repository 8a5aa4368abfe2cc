import { z } from 'zod';
import {
  CONFIG_ENV,
  type ConfigLayer,
  ConfigFileError,
  type RawConfig,
  envLayer,
  flagsFromEnv,
  getPath,
  isPlainObject,
  mergeConfig,
  projectConfigFile,
  readConfigFile,
  userConfigFile,
} from './config-files.js';
import { ArgusError } from './errors.js';

export * from './config-files.js';

const Pattern = z.string().min(1).max(500);
const PatternList = z.array(Pattern).max(1_000);

/** Domain patterns: `example.com` (and its subdomains), `*.example.com` (subdomains only), `localhost:8080`, `*`. */
export const PolicyConfig = z
  .object({
    domains: z
      .object({
        allow: PatternList.optional().describe(
          'Hosts the browser may load pages from; when set, every other host is refused',
        ),
        deny: PatternList.optional().describe('Hosts the browser may never load pages from (beats allow)'),
      })
      .strict()
      .optional(),
    approve: z
      .object({
        commands: z
          .array(z.string().min(1).max(100))
          .max(500)
          .optional()
          .describe(
            'Commands (CLI verbs such as upload, or contract paths such as files.upload) that wait for an operator approval',
          ),
        submitOn: PatternList.optional().describe(
          'Hosts where a form submit (submit, or press Enter in a form) waits for an approval',
        ),
        timeoutMs: z
          .number()
          .int()
          .min(1_000)
          .max(3_600_000)
          .optional()
          .describe('How long a command waits for an approval (default 120000)'),
      })
      .strict()
      .optional(),
    cdp: z
      .object({
        allow: z
          .array(z.string().min(1).max(200))
          .max(500)
          .optional()
          .describe('CDP methods `argus cdp` may call beyond the built-in read-only list (Domain.method or Domain.*)'),
      })
      .strict()
      .optional(),
  })
  .strict();

/** The whole configuration. Every key is optional: a missing key means the built-in default. */
export const ArgusConfigSchema = z
  .object({
    stateDir: z
      .string()
      .min(1)
      .optional()
      .describe('Where the daemon keeps its state file, log and captures (default <workspace>/.argus)'),
    workspace: z
      .string()
      .min(1)
      .optional()
      .describe('The project root files are confined to (default: git top-level or cwd)'),
    files: z
      .object({
        allowedRoots: z
          .array(z.string().min(1).max(4096))
          .max(100)
          .optional()
          .describe(
            'Directories commands may read and write besides the project and the temp dir (env: `:`-separated)',
          ),
        allowFileUrls: z
          .boolean()
          .optional()
          .describe(
            'Let agents open file: URLs inside the allowed directories (default false; load-html serves local pages)',
          ),
      })
      .strict()
      .optional(),
    chrome: z
      .object({
        path: z.string().min(1).optional().describe('The Chrome/Chromium binary (default: the usual install paths)'),
        flags: z.array(z.string()).max(200).optional().describe('Extra Chromium flags appended to the defaults'),
        headless: z.boolean().optional().describe('false shows the browser window (default true)'),
        profile: z
          .string()
          .regex(/^[A-Za-z0-9][\w.-]{0,63}$/, 'letters, digits, `.`, `_` and `-`, starting with a letter or digit')
          .optional()
          .describe(
            'A persistent profile under <state dir>/profiles/NAME: logins survive restarts (default: a fresh one)',
          ),
        cdpUrl: z
          .string()
          .min(1)
          .optional()
          .describe('Connect to an existing Chrome (http://host:port or ws://...) instead of launching'),
      })
      .strict()
      .optional(),
    idleTimeoutMs: z
      .number()
      .int()
      .min(0)
      .optional()
      .describe('Idle shutdown of the daemon in ms (default 1800000; 0 disables)'),
    captureCapacity: z
      .number()
      .int()
      .min(1)
      .max(1_000_000)
      .optional()
      .describe('Entries kept per tab in each capture buffer (default 5000)'),
    maxParallelCommands: z
      .number()
      .int()
      .min(1)
      .max(256)
      .optional()
      .describe(
        'Tab commands running at once across tabs (default 8); each tab still runs its own commands one at a time, in order',
      ),
    pool: z
      .object({
        endpoints: z
          .array(z.string().min(1).max(2048))
          .max(64)
          .optional()
          .describe(
            'Remote CDP endpoints to place sessions on (http://host:port or ws://...); set: the daemon starts in pool mode',
          ),
        maxSessionsPerEndpoint: z
          .number()
          .int()
          .min(1)
          .max(1000)
          .optional()
          .describe('Sessions each endpoint holds at most (default 4)'),
        healthIntervalMs: z
          .number()
          .int()
          .min(500)
          .max(600_000)
          .optional()
          .describe('How often each endpoint is asked Browser.getVersion (default 5000)'),
        restoreState: z
          .boolean()
          .optional()
          .describe(
            "A session recreated after its endpoint died loads the session's last `state save` (default false)",
          ),
        allowRemote: z
          .boolean()
          .optional()
          .describe('Allow endpoints on other machines (default false: loopback only)'),
      })
      .strict()
      .optional(),
    relay: z
      .object({
        port: z.number().int().min(0).max(65_535).optional().describe('Port of the extension relay (default 8787)'),
      })
      .strict()
      .optional(),
    mcp: z
      .object({
        profile: z.enum(['core', 'full', 'research']).optional().describe('MCP tool set (default core)'),
        tools: z.array(z.string()).optional().describe('Exactly these MCP tools (names or profiles)'),
      })
      .strict()
      .optional(),
    policy: PolicyConfig.optional().describe('What agents may do: domains, approvals, raw CDP'),
    providers: z
      .object({
        agentNetworks: z
          .array(z.string().min(1).max(64))
          .max(100)
          .optional()
          .describe(
            'Private ranges (CIDR, e.g. 10.0.0.0/8) agents may fetch from besides the public internet (the operator CLI reaches local servers anyway)',
          ),
        search: z
          .object({
            engine: z
              .enum(['searxng', 'brave', 'duckduckgo'])
              .optional()
              .describe('Default engine for `argus search` / `research` (else the first configured, else duckduckgo)'),
            searxngUrl: z
              .string()
              .min(1)
              .max(2000)
              .optional()
              .describe('Base URL of a SearXNG instance (JSON format enabled)'),
            braveApiKey: z.string().min(1).max(500).optional().describe('Brave Search API key (shown masked)'),
            braveUrl: z
              .string()
              .min(1)
              .max(2000)
              .optional()
              .describe('Brave Search API base URL (default https://api.search.brave.com)'),
            duckduckgoUrl: z
              .string()
              .min(1)
              .max(2000)
              .optional()
              .describe("DuckDuckGo's HTML endpoint (default https://html.duckduckgo.com)"),
          })
          .strict()
          .optional(),
      })
      .strict()
      .optional(),
  })
  .strict();

export type ArgusConfig = z.output<typeof ArgusConfigSchema>;

export interface ConfigKey {
  key: string;
  description: string;
  schema: z.ZodType;
  env?: string;
}

function unwrap(schema: z.ZodType): z.ZodType {
  return schema instanceof z.ZodOptional ? unwrap(schema.unwrap() as z.ZodType) : schema;
}

function leaves(schema: z.ZodType, prefix: string, out: ConfigKey[]): ConfigKey[] {
  const inner = unwrap(schema);
  if (inner instanceof z.ZodObject) {
    for (const [name, child] of Object.entries(inner.shape as Record<string, z.ZodType>))
      leaves(child, prefix ? `${prefix}.${name}` : name, out);
    return out;
  }
  out.push({ key: prefix, description: schema.description ?? inner.description ?? '', schema: inner });
  return out;
}

let keys: readonly ConfigKey[] | undefined;

/** Every settable key (`chrome.headless`, `policy.domains.deny`, ...), with its env variable when it has one. */
export function configKeys(): readonly ConfigKey[] {
  if (!keys) {
    const envOf = new Map(CONFIG_ENV.map((entry) => [entry.key, entry.env]));
    keys = leaves(ArgusConfigSchema, '', []).map((entry) =>
      envOf.has(entry.key) ? { ...entry, env: envOf.get(entry.key)! } : entry,
    );
  }
  return keys;
}

export function configKey(key: string): ConfigKey {
  const found = configKeys().find((entry) => entry.key === key);
  if (!found) {
    const near = configKeys().filter(
      (entry) => entry.key.startsWith(`${key}.`) || editDistance(entry.key.toLowerCase(), key.toLowerCase()) <= 2,
    );
    const hint = near.length
      ? ` Did you mean ${near.map((entry) => entry.key).join(', ')}?`
      : ' Run `argus config list` for the keys.';
    throw new ArgusError('invalid_input', `Unknown config key "${key}".${hint}`, { details: { key } });
  }
  return found;
}

/** Levenshtein distance, for "did you mean" on short keys. */
function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, index) => index);
  for (let i = 1; i <= a.length; i += 1) {
    const current = [i];
    for (let j = 1; j <= b.length; j += 1)
      current[j] = Math.min(previous[j]! + 1, current[j - 1]! + 1, previous[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
    previous = current;
  }
  return previous[b.length]!;
}

function issuesText(error: z.ZodError): string {
  return error.issues.map((issue) => `${issue.path.join('.') || '(root)'}: ${issue.message}`).join('; ');
}

/** Validates one layer on its own, so an error names the file (or variable) and the key. */
export function validateLayer(raw: RawConfig, where: string, fix: string): ArgusConfig {
  const parsed = ArgusConfigSchema.safeParse(raw);
  if (parsed.success) return parsed.data;
  throw new ArgusError('invalid_input', `Invalid configuration in ${where}: ${issuesText(parsed.error)}. ${fix}`, {
    details: {
      where,
      issues: parsed.error.issues.map((issue) => ({ key: issue.path.join('.'), message: issue.message })),
    },
  });
}

export interface LoadedConfig {
  /** The merged configuration (defaults are applied by the code that reads a key). */
  config: ArgusConfig;
  /** The layer, and for env the variable, that set each key last. */
  sources: Map<string, { layer: ConfigLayer; where: string }>;
  files: { user: string; project: string };
}

export interface LoadConfigOptions {
  workspace: string;
  env?: NodeJS.ProcessEnv;
  /** The command-line layer (`-c key=value`); defaults to `ARGUS_CONFIG_FLAGS` from env. */
  flags?: RawConfig;
}

function recordSources(
  raw: RawConfig,
  prefix: string,
  layer: ConfigLayer,
  where: string,
  sources: LoadedConfig['sources'],
): void {
  for (const [name, value] of Object.entries(raw)) {
    const key = prefix ? `${prefix}.${name}` : name;
    if (isPlainObject(value)) recordSources(value, key, layer, where, sources);
    else sources.set(key, { layer, where });
  }
}

/** user file < project file < environment < flags, each validated on its own, then merged. */
export function loadConfig(options: LoadConfigOptions): LoadedConfig {
  const env = options.env ?? process.env;
  const files = { user: userConfigFile(env), project: projectConfigFile(options.workspace, env) };
  const sources: LoadedConfig['sources'] = new Map();
  let merged: RawConfig = {};
  const add = (raw: RawConfig, layer: ConfigLayer, where: string, fix: string) => {
    validateLayer(raw, where, fix);
    recordSources(raw, '', layer, where, sources);
    merged = mergeConfig(merged, raw);
  };
  for (const [layer, file] of [
    ['user', files.user],
    ['project', files.project],
  ] as const) {
    let raw: RawConfig;
    try {
      raw = readConfigFile(file);
    } catch (error) {
      if (error instanceof ConfigFileError) throw new ArgusError('invalid_input', error.message, { details: { file } });
      throw error;
    }
    add(raw, layer, file, `Fix the key in ${file} (or remove it with \`argus config unset <key>\`).`);
  }
  const fromEnv = envLayer(env);
  for (const [key, name] of fromEnv.sources) {
    // one variable at a time, so the error names the variable
    add(buildNested(key, getPath(fromEnv.config, key)), 'env', name, `Fix or unset the environment variable ${name}.`);
  }
  add(options.flags ?? flagsFromEnv(env), 'flags', 'command-line flags', 'Fix the -c key=value flag.');
  return { config: merged as ArgusConfig, sources, files };
}

function buildNested(key: string, value: unknown): RawConfig {
  const parts = key.split('.');
  let out: unknown = value;
  for (const part of parts.reverse()) out = { [part]: out };
  return out as RawConfig;
}

/**
 * Parses a value typed on a command line for `key`: JSON when it parses and fits, else the plain
 * text, else a comma-separated list for list keys. Throws an error naming the key.
 */
export function parseConfigValue(key: string, text: string): unknown {
  const { schema } = configKey(key);
  const candidates: unknown[] = [];
  try {
    candidates.push(JSON.parse(text));
  } catch {
    // not JSON: try the text itself
  }
  candidates.push(text);
  if (schema instanceof z.ZodArray)
    candidates.push(
      text
        .split(',')
        .map((item) => item.trim())
        .filter(Boolean),
    );
  for (const candidate of candidates) {
    const parsed = schema.safeParse(candidate);
    if (parsed.success) return parsed.data;
  }
  const first = schema.safeParse(candidates[0]);
  const reason = first.success ? '' : first.error.issues.map((issue) => issue.message).join('; ');
  throw new ArgusError(
    'invalid_input',
    `"${text}" is not a valid value for ${key}: ${reason}. ${configKey(key).description}.`,
    { details: { key } },
  );
}
