export {
  INVALID_PROBE,
  SnapshotEngine,
  type SnapshotOptions,
  type SnapshotResult,
  type ElementHandle,
} from './engine.js';
export {
  click,
  hover,
  fill,
  selectOption,
  focus,
  cannotFocus,
  typingTarget,
  sendKeys,
  type TypingTarget,
  scrollIntoView,
  elementText,
  elementHtml,
  elementBox,
  type ActionOptions,
} from './actions.js';
export { formatSnapshot, formatTree, nodeLine, type FormatOptions, type FormattedSnapshot } from './format.js';
export { diffLines, renderDiff, type DiffLine } from './diff.js';
export { badTargetError, parseRef, type RefNumbering } from './ref-registry.js';
export { describeLocator, parseLocator, type Locator } from './locator.js';
export { ARGUS_SCRIPT, OBJECT_GROUP, noteObjects, untilInPage } from './frame-eval.js';
export { elementLabel } from './element-handle.js';
export { draggableAt } from './drag-source.js';
export type { WalkNode } from './walker-types.js';
export { stableLocator, locatorText } from './stable-locator.js';
export * from './page/index.js';
