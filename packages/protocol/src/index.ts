export * from './errors.js';
export * from './daemon-state.js';
export * from './define.js';
export * from './common.js';
export * from './url.js';
export * from './url-display.js';
export * from './fields.js';
export * from './manifest.js';
// Types only: the router builder (and @trpc/server) stays out of bundles that need just the manifest.
export type {
  AppRouter,
  ArgusErrorShape,
  Authorize,
  CallContext,
  Handler,
  Handlers,
  InputOf,
  OutputOf,
  ParsedInputOf,
} from './router.js';
export { DEFAULT_SHARE_COMMANDS, NEVER_SHARED_COMMANDS, NEVER_SHARED_PREFIXES } from './commands/token.js';
export {
  AGENT_SCREENSHOT_PIXELS,
  AGENT_SCREENSHOT_QUALITY,
  EVAL_SOURCE_MAX,
  EVAL_MAX_CHARS,
  SCREENSHOT_MAX_EDGE,
} from './commands/page.js';
export { AGENT_READ_MAX_CHARS } from './commands/snapshot.js';
export { SessionName } from './commands/sessions.js';
export { ProfileName } from './commands/profile.js';
export { DEFAULT_POOL_MAX_SESSIONS, PoolState } from './commands/pool.js';
export { CANVAS_LINT_RULES } from './commands/canvas.js';
export { CANVAS_UPDATE_KINDS } from './commands/canvas-sync.js';
export { MAX_SKILL_STEPS, SKILL_COMMANDS, SkillFile, type SkillFileData, SkillName } from './commands/skill.js';
export * from './skill-files.js';
export {
  ANNOTATION_MAX_BYTES,
  INBOX_CONSUME_MAX_BYTES,
  INBOX_CONSUME_MAX_ITEMS,
  Annotation,
  type AnnotationData,
  type InboxItemData,
} from './commands/inbox.js';
