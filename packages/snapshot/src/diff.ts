import { refsInLine } from '@argus/protocol/snapshot-refs';

/** One line of a snapshot diff: added, removed, or changed in place (same ref, new content). */
export interface DiffLine {
  op: '+' | '-' | '~';
  line: string;
}

/** Longest-common-subsequence edit script over lines (Myers, O((N+M)·D)). */
function editScript(a: string[], b: string[]): Array<{ op: '=' | '+' | '-'; line: string }> {
  const n = a.length;
  const m = b.length;
  const max = n + m;
  const offset = max + 1;
  const v = new Int32Array(2 * max + 3);
  const trace: Int32Array[] = [];
  let done = false;
  for (let d = 0; d <= max && !done; d++) {
    trace.push(v.slice());
    for (let k = -d; k <= d; k += 2) {
      let x =
        k === -d || (k !== d && v[offset + k - 1]! < v[offset + k + 1]!) ? v[offset + k + 1]! : v[offset + k - 1]! + 1;
      let y = x - k;
      while (x < n && y < m && a[x] === b[y]) {
        x++;
        y++;
      }
      v[offset + k] = x;
      if (x >= n && y >= m) {
        done = true;
        break;
      }
    }
  }
  // walk the trace backwards
  const script: Array<{ op: '=' | '+' | '-'; line: string }> = [];
  let x = n;
  let y = m;
  for (let d = trace.length - 1; d >= 0; d--) {
    const vd = trace[d]!;
    const k = x - y;
    const prevK = k === -d || (k !== d && vd[offset + k - 1]! < vd[offset + k + 1]!) ? k + 1 : k - 1;
    const prevX = d === 0 ? 0 : vd[offset + prevK]!;
    const prevY = prevX - prevK;
    while (x > prevX && y > prevY) {
      script.push({ op: '=', line: a[--x]! });
      y--;
    }
    if (d === 0) break;
    if (x === prevX) script.push({ op: '+', line: b[--y]! });
    else script.push({ op: '-', line: a[--x]! });
  }
  while (x > 0 && y > 0) {
    script.push({ op: '=', line: a[--x]! });
    y--;
  }
  return script.reverse();
}

/** Lines added, removed or changed between two snapshots; a line keeping its ref but not its text is `~`. */
export function diffLines(before: string[], after: string[]): DiffLine[] {
  const script = editScript(before, after);
  const removedByRef = new Map<string, number>();
  const out: DiffLine[] = [];
  for (const step of script) {
    if (step.op === '=') continue;
    const line = step.line.trim();
    const ref = refsInLine(line)[0]?.ref;
    if (step.op === '-') {
      if (ref) removedByRef.set(ref, out.length);
      out.push({ op: '-', line });
    } else {
      const index = ref === undefined ? undefined : removedByRef.get(ref);
      if (index !== undefined) {
        out[index] = { op: '~', line };
        if (ref) removedByRef.delete(ref);
      } else out.push({ op: '+', line });
    }
  }
  return out;
}

export function renderDiff(lines: DiffLine[]): string {
  if (!lines.length) return '(no changes since the previous snapshot)';
  return lines.map((entry) => `${entry.op} ${entry.line}`).join('\n');
}
