// The type declarations dype ships type-check in a consumer's project that checks libraries too
// (`skipLibCheck: false`): the portable cores' declarations named AssemblyScript's i32, f64 and
// usize, declared only in a file that is not shipped, and such a consumer got about a hundred
// TS2304 errors. A consumer file is checked against the built dist/ through the package's
// `exports`, as an installed dype would be.

import { execFileSync } from 'node:child_process';
import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { repoRoot } from '../support/datasets.js';
import { tempFolder } from '../support/temp.js';

const CONSUMER = `import { kroneckerGraph, schedule, loadEdgeList, type CsrMatrix, type Plan } from 'dype';
const g: CsrMatrix = kroneckerGraph({ scale: 8, seed: 1 });
const plan: Plan = await schedule('bfs', g);
const label: string = plan.chosen.label;
const { matrix } = await loadEdgeList('graph.tsv', { undirected: true });
console.log(label, matrix.rows);
`;

describe('the shipped type declarations', () => {
  it('type-check in a consumer with skipLibCheck: false', () => {
    const app = tempFolder('dype-consumer-');
    writeFileSync(join(app, 'package.json'), JSON.stringify({ name: 'consumer', private: true, type: 'module' }));
    mkdirSync(join(app, 'node_modules'));
    symlinkSync(repoRoot, join(app, 'node_modules', 'dype'), 'dir');
    writeFileSync(join(app, 'consumer.ts'), CONSUMER);
    writeFileSync(
      join(app, 'tsconfig.json'),
      JSON.stringify({
        compilerOptions: { target: 'ES2022', module: 'NodeNext', moduleResolution: 'NodeNext', strict: true, skipLibCheck: false, noEmit: true, types: [] },
        include: ['consumer.ts'],
      }),
    );
    const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
    let output = '';
    try {
      execFileSync(process.execPath, [tsc, '-p', app], { cwd: app, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
    } catch (e) {
      output = String((e as { stdout?: string }).stdout ?? e);
    }
    expect(
      output
        .split('\n')
        .filter((l) => l.includes('error'))
        .slice(0, 10),
    ).toEqual([]);
  }, 120_000);
});
