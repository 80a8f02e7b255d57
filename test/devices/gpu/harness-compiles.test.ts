// The GPU benchmark's harness (bench/gpu/harness.cu) calls the kernels' launchers directly and is
// compiled only on a machine with a card, where a signature change once broke it unseen for days.
// Wherever nvcc exists (no card needed), nvcc's front end checks it against the current headers
// in about a second (cuSPARSE left out: its header is not on machines without the toolkit's
// libraries).

import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { repoRoot } from '../../support/datasets.js';

const config = (what: string) =>
  execFileSync(process.execPath, [join(repoRoot, 'scripts', 'cuda-config.cjs'), what], { encoding: 'utf8', env: { ...process.env, DYPE_CUDA: '' } });
const hasNvcc = config('off') !== '1';

function withoutPreload(): NodeJS.ProcessEnv {
  const env = { ...process.env };
  delete env['LD_PRELOAD'];
  return env;
}

describe.skipIf(!hasNvcc)('GPU benchmark harness', () => {
  const dir = mkdtempSync(join(tmpdir(), 'dype-harness-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('passes nvcc front end against the current kernel headers', () => {
    const r = spawnSync(
      config('nvcc'),
      [
        '-std=c++17',
        '-DDYPE_NO_CUSPARSE',
        '--cuda',
        `-I${join(repoRoot, 'native', 'src')}`,
        join(repoRoot, 'bench', 'gpu', 'harness.cu'),
        '-o',
        join(dir, 'harness.ii'),
      ],
      // A compiler, not the code under test: without the sanitizers' preload (scripts/test-asan.sh), under which nvcc's front end crashes.
      { encoding: 'utf8', env: withoutPreload() },
    );
    expect(
      r.stderr
        .split('\n')
        .filter((l) => l.includes('error'))
        .join('\n'),
    ).toBe('');
    expect(r.status).toBe(0);
  });
});
