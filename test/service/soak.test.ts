// The hostile soak at a small size (bench/service/soak.ts runs it at 64 clients and 10,000
// requests): a real `dype serve` process and real client processes mixing valid runs (each
// checked against a local reference) with wrong tokens, fuzzed, oversized and malformed frames,
// cross-tenant cancels and clients that vanish mid-job. Nothing crashes, nothing is lost or
// misdelivered, every refusal is typed, and the server still answers and drains to exit 0.

import { expect, it } from 'vitest';
import { runSoak } from '../../bench/service/soak.js';

it('survives hostile clients with every valid run answered by its own output', async () => {
  const o = await runSoak({ processes: 2, connections: 3, requests: 12 });
  const c = o.counts;
  expect(o.serverExitedEarly).toBe(false);
  expect(c.untyped).toEqual([]);
  expect(c.lost).toBe(0);
  expect(c.mismatched).toBe(0);
  expect(c.valid).toBeGreaterThan(0);
  // A valid run may be refused only by a stray cancel of its own job id (an AbortedError).
  expect(c.verified + (c.typed['ERR_ABORTED'] ?? 0)).toBeGreaterThanOrEqual(c.valid);
  expect(c.hostile).toBeGreaterThan(0);
  expect(o.answeredAfter).toBe(true);
  expect(o.drainCode).toBe(0);
}, 120_000);
