// When no plan satisfies the constraints, `dype explore` shows it as a result (exit 0): the front
// without the constraints, the nearest miss, and the flag values that would find plans, in units
// a person reads; --json carries `empty.reason`. `dype run` has nothing to run: exit 1, one line
// with the same advice.

import { describe, expect, it } from 'vitest';
import { runCli } from '../support/cli.js';

const SMALL = ['--generate', 'kronecker:scale=10,seed=3'];
const RAW_FLOAT = /\d\.\d{6,}|\de-\d/; // 0.0007177500000000001, 1e-9

describe('explore with constraints no plan meets', () => {
  it('prints the front without them, the nearest miss and what to relax, and exits 0', async () => {
    const r = await runCli(['explore', ...SMALL, '--deadline', '1us', '--no-plot']);
    expect(r.code).toBe(0);
    expect(r.err).toBe('');
    expect(r.out).toMatch(/^Constraints: deadline 1\.00 us$/m);
    expect(r.out).toMatch(
      /^No plan satisfies the constraints: no mapping of [\d,]+ evaluated satisfies the constraints; the best by time breaks them: deadline: [\d.]+ (us|ms) > 1\.00 us \(\+[\d,]+%\)\.$/m,
    );
    expect(r.out).toMatch(/The Pareto front without the constraints, and the baselines:/);
    expect(r.out).toMatch(/^#1\s+[\d.]+ (us|ms)\s+[\d.]+ (uJ|mJ|J)\s+.*<- nearest miss; over the deadline/m);
    expect(r.out).toMatch(/^To find plans, relax:\n {2}--deadline [\d.]+(us|ms) or more \(the fastest plan found takes/m);
    expect(r.out).not.toMatch(RAW_FLOAT);
    expect(r.files).toEqual([]);
  });

  it('--json gives an empty front with empty.reason, the nearest miss and the values to relax to', async () => {
    const r = await runCli(['explore', 'pagerank', ...SMALL, '--deadline', '1us', '--energy-budget', '1uJ', '--json']);
    expect(r.code).toBe(0);
    const o = JSON.parse(r.out) as {
      front: unknown[];
      chosen: null;
      plot: null;
      empty: {
        reason: string;
        nearestMiss: { time: number };
        relax: { deadline: number; energyBudget: number };
        frontWithoutConstraints: { time: number; energy: number }[];
      };
    };
    expect(o.front).toEqual([]);
    expect(o.chosen).toBeNull();
    expect(o.empty.reason).toMatch(/no mapping of [\d,]+ evaluated satisfies the constraints/);
    expect(o.empty.relax.deadline).toBe(Math.min(...o.empty.frontWithoutConstraints.map((p) => p.time)));
    expect(o.empty.relax.energyBudget).toBe(Math.min(...o.empty.frontWithoutConstraints.map((p) => p.energy)));
    expect(o.empty.nearestMiss.time).toBe(o.empty.relax.deadline);
  });

  it('draws the front without the constraints with the deadline marked', async () => {
    const r = await runCli(['explore', ...SMALL, '--deadline', '1us', '--out', 'front.svg']);
    expect(r.code).toBe(0);
    expect(r.files).toEqual(['front.svg']);
    expect(r.out).toMatch(/^Chart: front\.svg \(the front without the constraints/m);
  });

  it('run fails with exit 1 and one line that says what to relax', async () => {
    const r = await runCli(['run', ...SMALL, '--deadline', '1us', '--no-plot', '--no-trace']);
    expect(r.code).toBe(1);
    expect(r.err.trim().split('\n')).toHaveLength(1);
    expect(r.err).toMatch(
      /^dype: run: no mapping of [\d,]+ evaluated satisfies the constraints; .*deadline: [\d.]+ (us|ms) > 1\.00 us \(\+[\d,]+%\); to find plans, relax --deadline [\d.]+(us|ms) or more/,
    );
    expect(r.err).not.toMatch(RAW_FLOAT);
  });
});
