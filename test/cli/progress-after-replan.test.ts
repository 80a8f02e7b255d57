// `dype run`'s progress counts pieces planned at the start; a re-plan can leave fewer (it stopped
// at 5/6) or more. The count grows past the plan when needed, and the last line says 100%.

import { describe, expect, it } from 'vitest';
import { pieceProgress, progressReporter } from '../../src/cli/progress.js';

function lines(planned: number, ran: number): string[] {
  const writes: string[] = [];
  const write = (chunk: string): boolean => {
    writes.push(chunk);
    return true;
  };
  const s = { isTTY: false, write } as unknown as NodeJS.WriteStream;
  const p = pieceProgress(progressReporter('run', s), planned);
  for (let i = 0; i < ran; i++) p.piece(`piece ${i + 1}`);
  p.finish();
  return writes.join('').trim().split('\n');
}

describe('run progress across a re-plan', () => {
  it('ends at 100% when the re-plan left fewer pieces than planned', () => {
    const out = lines(6, 5);
    expect(out[out.length - 2]).toBe('run: 5/6 (83%) piece 5');
    expect(out[out.length - 1]).toBe('run: 5/5 (100%) finished (a re-plan changed the pieces)');
  });

  it('counts past the plan when the re-plan added pieces, and ends at 100%', () => {
    const out = lines(4, 6);
    expect(out[out.length - 1]).toMatch(/^run: (\d+)\/\1 \(100%\) piece \d/);
    expect(out.some((l) => /\/4 /.test(l) && !l.startsWith('run: 4/4'))).toBe(true); // counted against the plan first
  });
});
