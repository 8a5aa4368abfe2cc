import { ANNOTATION_MAX_BYTES, type AnnotationData } from '@argus/protocol';

const size = (value: unknown) => Buffer.byteLength(JSON.stringify(value), 'utf8');

/** Text excerpts are cut to this first (then 200, then 40 characters) before elements are dropped. */
const TEXT_STEPS = [2000, 200, 40];

/**
 * An annotation within `maxBytes` of JSON (64 KiB): text excerpts and notes are shortened step by
 * step, then elements dropped from the end; `cut` records how many characters and elements went,
 * so the agent knows it is not seeing everything.
 */
export function capAnnotation(annotation: AnnotationData, maxBytes = ANNOTATION_MAX_BYTES): AnnotationData {
  if (size(annotation) <= maxBytes) return annotation;
  let textChars = 0;
  let elements = annotation.elements.map((element) => ({ ...element }));
  const shorten = (text: string, max: number) => {
    if (text.length <= max) return text;
    textChars += text.length - max;
    return `${text.slice(0, max - 1)}…`;
  };
  const candidate = () => ({ ...annotation, elements, cut: { elements: 0, textChars } });
  for (const max of TEXT_STEPS) {
    elements = elements.map((element) => ({
      ...element,
      text: shorten(element.text, max),
      name: shorten(element.name, max),
      note: shorten(element.note, max * 2),
      value: element.value === null ? null : shorten(element.value, max),
      locator: element.locator && element.locator.length > max * 2 ? null : element.locator,
    }));
    if (size(candidate()) <= maxBytes) return candidate();
  }
  const url = shorten(annotation.url, 2000);
  const title = shorten(annotation.title, 500);
  // keep the elements that fit, in order: the frame's size plus each element's (and its comma)
  const frame = size({ ...annotation, url, title, elements: [], cut: { elements: elements.length, textChars } });
  let total = frame;
  let kept = 0;
  for (const element of elements) {
    const next = total + size(element) + (kept ? 1 : 0);
    if (next > maxBytes) break;
    total = next;
    kept += 1;
  }
  return {
    ...annotation,
    url,
    title,
    elements: elements.slice(0, kept),
    cut: { elements: elements.length - kept, textChars },
  };
}
