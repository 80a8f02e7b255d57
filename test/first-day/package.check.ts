// The package as a user gets it: `npm pack`, then `npm install` of the tarball into an empty
// project in a temporary folder (which builds the native addon from the shipped sources), then
// the package used from an ES module, from CommonJS, through its `dype` bin, and type-checked in
// a consumer with `skipLibCheck: false`.

import { execFileSync } from 'node:child_process';
import { readdirSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { repoRoot } from '../support/datasets.js';
import { tempFolder } from '../support/temp.js';

const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
let app = '';

function run(cmd: string, args: string[], cwd: string, env: Record<string, string> = {}): string {
  try {
    return execFileSync(cmd, args, { cwd, encoding: 'utf8', env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'], maxBuffer: 64 << 20 });
  } catch (e) {
    const x = e as { stdout?: string; stderr?: string; message: string };
    throw new Error(`${cmd} ${args.join(' ')} failed in ${cwd}:\n${x.message}\n${(x.stdout ?? '').slice(-4000)}\n${(x.stderr ?? '').slice(-4000)}`);
  }
}

beforeAll(() => {
  const packs = tempFolder('dype-pack-');
  // Packing runs `prepare`, which builds the WebAssembly and the TypeScript as a release would.
  run(npm, ['pack', '--pack-destination', packs, '--silent'], repoRoot);
  const [tarball] = readdirSync(packs).filter((f) => f.endsWith('.tgz'));
  expect(tarball).toBeDefined();
  app = tempFolder('dype-app-');
  writeFileSync(join(app, 'package.json'), JSON.stringify({ name: 'first-day', version: '1.0.0', private: true, type: 'module' }));
  // DYPE_CUDA=0: the addon without its CUDA sources, quicker to build; the packaging is the same.
  run(npm, ['install', '--no-audit', '--no-fund', '--prefer-offline', join(packs, tarball!)], app, { DYPE_CUDA: '0' });
});

describe('the packed package, installed into an empty project', () => {
  it('imports from an ES module and runs a kernel', () => {
    writeFileSync(
      join(app, 'esm.mjs'),
      `import { kroneckerGraph, bfs, schedule } from 'dype';
const g = kroneckerGraph({ scale: 8, seed: 1 });
// Kronecker graphs have isolated vertices: start from the one of largest degree.
let hub = 0;
for (let v = 1; v < g.rows; v++) if (g.rowLength(v) > g.rowLength(hub)) hub = v;
const { depth } = await bfs(g, hub);
const plan = await schedule('bfs', g);
console.log(JSON.stringify({ rows: g.rows, reached: depth.filter((d) => d >= 0).length, plan: typeof plan.chosen.label }));
`,
    );
    const o = JSON.parse(run(process.execPath, ['esm.mjs'], app)) as { rows: number; reached: number; plan: string };
    expect(o).toMatchObject({ rows: 256, plan: 'string' });
    expect(o.reached).toBeGreaterThan(1);
  });

  it('imports from CommonJS', () => {
    writeFileSync(
      join(app, 'cjs.cjs'),
      `'use strict';
import('dype').then(async (dype) => {
  const g = dype.gridGraph({ rows: 4, cols: 4 });
  const { depth } = await dype.bfs(g, 0);
  console.log(JSON.stringify({ dynamic: depth.length }));
});
`,
    );
    expect(JSON.parse(run(process.execPath, ['cjs.cjs'], app))).toEqual({ dynamic: 16 });
  });

  it('runs the dype bin', () => {
    expect(run(join(app, 'node_modules', '.bin', 'dype'), ['--version'], app).trim()).toMatch(/^\d+\.\d+\.\d+/);
    const o = JSON.parse(run(join(app, 'node_modules', '.bin', 'dype'), ['explore', 'bfs', '--generate', 'grid:rows=20,cols=20', '--json'], app)) as {
      front: unknown[];
    };
    expect(o.front.length).toBeGreaterThan(0);
  });

  it('type-checks in a consumer with skipLibCheck: false', () => {
    writeFileSync(
      join(app, 'consumer.ts'),
      `import { kroneckerGraph, schedule, loadMatrixMarket, type CsrMatrix, type Plan } from 'dype';
const g: CsrMatrix = kroneckerGraph({ scale: 8, seed: 1 });
const plan: Plan = await schedule('gcn', g);
const a = await loadMatrixMarket('a.mtx', { format: 'coordinate' });
console.log(plan.chosen.label, a.nnz);
`,
    );
    writeFileSync(
      join(app, 'tsconfig.json'),
      JSON.stringify({
        compilerOptions: { target: 'ES2022', module: 'NodeNext', moduleResolution: 'NodeNext', strict: true, skipLibCheck: false, noEmit: true },
        include: ['consumer.ts'],
      }),
    );
    const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
    expect(run(process.execPath, [tsc, '-p', app], app)).toBe('');
  });
});
