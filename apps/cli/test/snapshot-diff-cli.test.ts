import { describe, expect, it } from 'vitest';
import { useCli } from './cli-harness.js';

// Issue 14: `snapshot --diff` with nothing to diff against says so, and marks the full snapshot.

describe('argus snapshot --diff without a baseline', () => {
  const cli = useCli('argus-diff-');

  it('says there is no baseline, prints the full snapshot, then diffs against it', async () => {
    expect((await cli.argus('goto', cli.server.urlFor('/buttons.html'))).code).toBe(0);
    const first = await cli.argus('snapshot', '-i', '--diff');
    expect(first.code, first.stderr).toBe(0);
    const [notice, ...tree] = first.stdout.trimEnd().split('\n');
    expect(notice).toMatch(
      /^\[no earlier snapshot of this tab in this mode to diff against: the full snapshot follows/,
    );
    expect(tree.join('\n')).toMatch(/button "Increment" e\d+/);
    const json = JSON.parse((await cli.argus('snapshot', '-i', '--diff', '--json')).stdout) as {
      baseline: string;
      text: string;
    };
    expect(json.baseline).toBe('previous');
    expect(json.text).toBe('(no changes since the previous snapshot)');
    // a diff that names no view compares in the last snapshot's (-i here)
    const same = JSON.parse((await cli.argus('snapshot', '--diff', '--json')).stdout) as { baseline: string };
    expect(same.baseline).toBe('previous');
    // another view has its own baseline
    const deep = JSON.parse((await cli.argus('snapshot', '--diff', '--depth', '3', '--json')).stdout) as {
      baseline: string;
    };
    expect(deep.baseline).toBe('none');
  });
});
