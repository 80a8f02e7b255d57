// The speed history's span reads "over 1 minute of plans": `dype explore` run twice within a
// minute or so printed "+-43% across 6 readings over 1 minutes of plans".

import { expect, it } from 'vitest';
import { spreadLines } from '../../src/cli/commands/explore-spread.js';

const line = (spanSeconds: number): string =>
  spreadLines([{ device: 'cpu', probeSpread: 0.09, speedDrift: undefined, speedHistory: { drift: 0.43, readings: 6, spanSeconds } }])[0]!;

it('writes one minute in the singular, more in the plural', () => {
  expect(line(20)).toContain('across 6 readings over 1 minute of plans,');
  expect(line(70)).toContain('over 1 minute of plans,');
  expect(line(150)).toContain('over 3 minutes of plans,');
});
