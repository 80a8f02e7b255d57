// A calibration's samples that do not grow with many times the work are a busy machine's, not
// the operator's, and are taken again (calibrateOperator, looksFlat); samples that grow, or
// inputs too alike in size to tell, are kept.
import { expect, it } from 'vitest';
import { looksFlat } from '../../src/operators/calibrate-op.js';

const sample = (work: number, seconds: number) => ({ flops: work / 2, bytes: work / 2, seconds });

it('flags samples whose 32x larger input took no longer, and keeps growing or alike ones', () => {
  // A loaded CI machine: the 4k, 32k and 128k-row ReLUs at about 300 us each.
  expect(looksFlat([sample(4096, 3.1e-4), sample(32_768, 2.9e-4), sample(131_072, 3.0e-4)])).toBe(true);
  // The same inputs timed quietly: 6, 30 and 110 us.
  expect(looksFlat([sample(4096, 6e-6), sample(32_768, 3e-5), sample(131_072, 1.1e-4)])).toBe(false);
  // Order of the samples does not matter.
  expect(looksFlat([sample(131_072, 3.0e-4), sample(4096, 3.1e-4)])).toBe(true);
  // Inputs within 8x of each other in work cannot be judged so; one sample cannot at all.
  expect(looksFlat([sample(4096, 3e-4), sample(16_384, 3e-4)])).toBe(false);
  expect(looksFlat([sample(4096, 3e-4)])).toBe(false);
});
