/** Typed functions that run inside the page, one module per job (see page-function.ts). */
export { pageExpression, pageResult, type Binding, type PageFunction } from './page-function.js';
export { LINKS } from './links.js';
export { FORMS, type PageFormField } from './forms.js';
export { MEDIA } from './media.js';
export { DATA } from './data.js';
export { PERF } from './perf.js';
export { CLEANUP } from './cleanup.js';
export { ELEMENT_STATE, CHECK_STATE, CLICK_LABEL, type CheckState } from './element-state.js';
export {
  COMPUTED_STYLE,
  ATTRIBUTES,
  IS_FRAME,
  FRAME_OWNER,
  type FrameOwner,
  UPLOAD_TARGET,
  CANVAS_NODE,
} from './element-info.js';
export { SET_STYLE, RESTORE_STYLE } from './style.js';
export { STORAGE_READ, STORAGE_WRITE, ORIGIN_STORAGE, WRITE_LOCAL_STORAGE } from './storage.js';
export {
  SCROLL_BY,
  SCROLL_POSITION,
  VIEWPORT_SIZE,
  NEXT_FRAME,
  DRAGGABLE_AT,
  DRAGGABLE_NODE,
  CLICK_DOWNLOAD_LINK,
  BODY_TEXT,
  DOCUMENT_TITLE,
  READY_STATE,
} from './window.js';
export { CANVAS_IMPORT, type CanvasImportResult } from './canvas-import.js';
export { WAIT_UNTIL, VALID_SELECTOR, type WaitTest } from './wait.js';
export { DETECT_CHALLENGE, ChallengeFinding } from './challenge.js';
export { PICKER_OPEN, PICKER_CLOSE, PICKER_COLLECT, PickerCollection, type PickedElement } from './annotate-picker.js';
export { SERIALIZE_VALUE, EvalValue } from './eval-value.js';
