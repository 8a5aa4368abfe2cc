import { homedir, tmpdir } from 'node:os';
import { join } from 'node:path';
import type { CallContext } from '@argus/protocol';
import {
  assertUrlAllowed,
  browserFileRefusal,
  hasScope,
  parseRoots,
  type PathPolicy,
  projectRoot,
  type UrlPolicy,
  urlRefusal,
} from '@argus/security';

export interface AccessOptions {
  /** The daemon's own project (ARGUS_WORKSPACE, else the git top-level of where it started). */
  workspace: string;
  stateDir: string;
  /** Operator roots (ARGUS_ALLOWED_ROOTS). */
  extraRoots?: readonly string[];
  /** ARGUS_ALLOW_FILE_URLS: agents may `goto file://…` (still confined to the allowed area). */
  allowFileUrls?: boolean;
  home?: string;
}

/** How many callers' directories keep their project root (a client calls from one or a few). */
const PROJECTS_KEPT = 64;
/** URLs Chrome reports for web pages and blank frames (canonical: the scheme is lower case); never file: ones. */
const WEB_URL = /^(?:https?:\/\/|about:)/;

/**
 * The daemon's one answer to "may this caller touch this file / URL": every handler that takes a
 * path or a URL asks here, and the browser-wide file: guard asks `browserFiles()`.
 *
 * The allowed area for a call is the daemon's workspace, the temp dir and the operator's roots, plus
 * the caller's own project (the git top-level of the directory it sent, else that directory) when
 * the caller holds admin scope: the CLI and MCP server run with the root token as the user, while a
 * scoped token's claimed directory must not widen what it can reach. The state dir is refused
 * everywhere except its captures, downloads and skills.
 */
export class Access {
  readonly workspace: string;
  readonly stateDir: string;
  readonly allowFileUrls: boolean;
  private readonly home: string;
  private readonly baseRoots: string[];
  /** Projects of admin callers seen so far: pages they opened may load their files. */
  private readonly granted = new Set<string>();

  constructor(options: AccessOptions) {
    this.workspace = options.workspace;
    this.stateDir = options.stateDir;
    this.allowFileUrls = options.allowFileUrls ?? false;
    this.home = options.home ?? homedir();
    this.baseRoots = [options.workspace, tmpdir(), ...(options.extraRoots ?? [])];
  }

  /** From the validated configuration (`files.allowedRoots`, `files.allowFileUrls`; env ARGUS_ALLOWED_ROOTS, ARGUS_ALLOW_FILE_URLS). */
  static fromSettings(
    files: { allowedRoots?: string[] | undefined; allowFileUrls?: boolean | undefined } | undefined,
    workspace: string,
    stateDir: string,
    home: string = process.env.HOME || homedir(),
  ): Access {
    return new Access({
      workspace,
      stateDir,
      extraRoots: parseRoots(files?.allowedRoots?.join(':'), home),
      home,
      allowFileUrls: files?.allowFileUrls ?? false,
    });
  }

  private guarded(cwd: string, roots: readonly string[]): PathPolicy {
    return {
      cwd,
      roots,
      denied: [this.stateDir],
      // skills: a project's `.argus/skills` is inside the state dir when that is the project's `.argus`
      reopened: [join(this.stateDir, 'captures'), join(this.stateDir, 'downloads'), join(this.stateDir, 'skills')],
      home: this.home,
    };
  }

  /** The path policy of one call: its directory for relative paths, its allowed area. */
  paths(ctx: Pick<CallContext, 'cwd' | 'scopes'>): PathPolicy {
    const cwd = ctx.cwd ?? this.workspace;
    if (ctx.cwd === undefined || !hasScope(ctx.scopes, 'admin')) return this.guarded(cwd, this.baseRoots);
    const project = this.projectOf(ctx.cwd);
    this.granted.add(project);
    return this.guarded(cwd, [...this.baseRoots, project]);
  }

  /**
   * The project a caller's directory belongs to, found once per directory: the walk up to `.git`
   * (an lstat per level) was ~0.1 ms of every call that takes a path or a URL, which a client's
   * calls repeat from the same directory (issue 16). Its area is granted to the browser for the
   * daemon's life anyway (`granted`), so a root found earlier is no wider than what already holds.
   */
  private projectOf(cwd: string): string {
    let project = this.projects.get(cwd);
    if (project === undefined) {
      project = projectRoot(cwd);
      if (this.projects.size >= PROJECTS_KEPT) this.projects.clear();
      this.projects.set(cwd, project);
    }
    return project;
  }

  private readonly projects = new Map<string, string>();

  urls(ctx: Pick<CallContext, 'cwd' | 'scopes'>): UrlPolicy {
    return { allowFileUrls: this.allowFileUrls, files: this.paths(ctx) };
  }

  /** Throws `url_forbidden` unless this caller may send the browser to `url`. */
  checkUrl(url: string, ctx: Pick<CallContext, 'cwd' | 'scopes'>): void {
    assertUrlAllowed(url, this.urls(ctx));
  }

  /** Why a caller may not visit `url` (for lists such as restored tabs), or undefined. */
  urlRefusal(url: string, ctx: Pick<CallContext, 'cwd' | 'scopes'>): string | undefined {
    return urlRefusal(url, this.urls(ctx));
  }

  /** The area the browser may load file: URLs from, whoever asked (a page's own links and frames). */
  browserFiles(): PathPolicy {
    return this.guarded(this.workspace, [...this.baseRoots, ...this.granted]);
  }

  /** Why the browser must not show `url` (file: outside the area), or undefined. */
  browserRefusal(url: string): string | undefined {
    const inner = url.startsWith('view-source:') ? url.slice('view-source:'.length) : url;
    // only a file: URL can be refused: a web page's URL (every frame's, asked before every command
    // that reads a page) is answered without a URL parse or building the file area (issue 16)
    if (WEB_URL.test(inner)) return undefined;
    return browserFileRefusal(inner, this.browserFiles());
  }
}
