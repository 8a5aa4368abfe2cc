import { ArgusError } from '@argus/protocol';

/** Paper sizes in inches (portrait). */
export const PAPER = {
  letter: { width: 8.5, height: 11 },
  a4: { width: 210 / 25.4, height: 297 / 25.4 },
  legal: { width: 8.5, height: 14 },
} as const;

const PER_INCH: Record<string, number> = { in: 1, cm: 2.54, mm: 25.4, q: 101.6, pt: 72, pc: 6, px: 96, '': 96 };

export interface Margins {
  top: number;
  right: number;
  bottom: number;
  left: number;
}

/** `"1cm"`, `"10mm 20mm"`, `"1in,0.5in,1in,0.5in"` -> inches, following the CSS `margin` shorthand. */
export function parseMargins(text: string): Margins {
  const parts = text
    .trim()
    .split(/[\s,]+/)
    .filter(Boolean);
  const bad = () =>
    new ArgusError(
      'invalid_input',
      `--margins "${text}" is not 1-4 CSS lengths. Use e.g. "1cm", "10mm 20mm" or "0.5in 1in 0.5in 1in" (units: in, cm, mm, pt, pc, px).`,
      {
        details: { margins: text },
      },
    );
  if (parts.length < 1 || parts.length > 4) throw bad();
  const inches = parts.map((part) => {
    const match = /^(\d+(?:\.\d+)?|\.\d+)(in|cm|mm|q|pt|pc|px)?$/i.exec(part);
    if (!match) throw bad();
    const value = Number(match[1]) / PER_INCH[(match[2] ?? '').toLowerCase()]!;
    if (!Number.isFinite(value) || value > 10) throw bad();
    return value;
  });
  const [top, right = top, bottom = top, left = right] = inches as [number, number?, number?, number?];
  return { top, right, bottom, left };
}
