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
    // another mode has its own baseline
    const full = JSON.parse((await cli.argus('snapshot', '--diff', '--json')).stdout) as { baseline: string };
    expect(full.baseline).toBe('none');
  });
});
