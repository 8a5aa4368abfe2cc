// Proves the lint rules hold the layers: deliberate bad imports, linted with the workspace's real
// config, must fail; the same files with allowed imports must pass.
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../../', import.meta.url));
const eslint = new ESLint({ cwd: root });

async function problems(file, code) {
  const [result] = await eslint.lintText(code, { filePath: join(root, file) });
  return result.messages.map((message) => message.ruleId);
}

describe('layer rules', () => {
  it.each([
    ['packages/protocol/src/bad.ts', "import { Browser } from '@argus/cdp';\nexport const x = Browser;\n"],
    ['packages/security/src/bad.ts', "import { startDaemon } from '@argus/daemon';\nexport const x = startDaemon;\n"],
    ['packages/canvas/src/bad.ts', "import { redact } from '@argus/security';\nexport const x = redact;\n"],
    ['packages/providers/src/bad.ts', "import { Browser } from '@argus/cdp';\nexport const x = Browser;\n"],
    ['apps/cli/src/bad.ts', "import { Browser } from '@argus/cdp';\nexport const x = Browser;\n"],
    [
      'apps/plugin/test/bad.test.ts',
      "import { SnapshotEngine } from '@argus/snapshot';\nexport const x = SnapshotEngine;\n",
    ],
    [
      'packages/cdp/src/bad.ts',
      "import { startFixtureServer } from '@argus/test-kit';\nexport const x = startFixtureServer;\n",
    ],
  ])('refuses a bad import in %s', async (file, code) => {
    expect(await problems(file, code)).toContain('no-restricted-imports');
  });

  it('refuses a relative path into another package, in src and in tests', async () => {
    const code = "import { x } from '../../extension/test/helpers/harness.js';\nexport const y = x;\n";
    expect(await problems('apps/daemon/test/bad.test.ts', code)).toContain('workspace/no-cross-package-relative');
    expect(
      await problems(
        'packages/cdp/src/bad.ts',
        "import { y } from '../../snapshot/src/index.js';\nexport const z = y;\n",
      ),
    ).toContain('workspace/no-cross-package-relative');
  });

  it.each([
    ['packages/snapshot/src/ok.ts', "import { Browser } from '@argus/cdp';\nexport const x = Browser;\n"],
    ['apps/cli/src/ok.ts', "import { connectToDaemon } from '@argus/client';\nexport const x = connectToDaemon;\n"],
    [
      'packages/cdp/test/ok.test.ts',
      "import { startFixtureServer } from '@argus/test-kit';\nexport const x = startFixtureServer;\n",
    ],
    ['packages/cdp/src/ok.ts', "import { y } from './session.js';\nexport const z = y;\n"],
  ])('allows %s', async (file, code) => {
    expect(await problems(file, code)).toEqual([]);
  });
});
