// Progress goes to stderr as a bar redrawn in place on a terminal, and as at most one plain
// line per tenth of the work otherwise (a pipe, a file, CI logs).

import { describe, expect, it } from 'vitest';
import { progressReporter } from '../../src/cli/progress.js';

function stream(isTTY: boolean): { writes: string[]; s: NodeJS.WriteStream } {
  const writes: string[] = [];
  const write = (chunk: string): boolean => {
    writes.push(chunk);
    return true;
  };
  const s = { isTTY, columns: 60, write } as unknown as NodeJS.WriteStream;
  return { writes, s };
}

describe('progressReporter', () => {
  it('redraws one bar in place on a terminal and clears it at the end', () => {
    const { writes, s } = stream(true);
    const p = progressReporter('calibrate', s);
    for (let i = 1; i <= 50; i++) p.update(i, 50, `step ${i}`);
    p.done('done');
    expect(writes.length).toBe(52);
    expect(writes.slice(0, 50).every((w) => w.startsWith('\r') && !w.includes('\n') && w.length <= 60)).toBe(true);
    expect(writes[49]).toMatch(/^\rcalibrate \[#{24}\] 50\/50 step 50/);
    expect(writes[50]).toBe('\r\x1b[K');
    expect(writes[51]).toBe('done\n');
  });

  it('prints plain lines, at most one per tenth, when not on a terminal', () => {
    const { writes, s } = stream(false);
    const p = progressReporter('run', s);
    for (let i = 1; i <= 200; i++) p.update(i, 200, `piece ${i}`);
    p.done();
    expect(writes.length).toBeLessThanOrEqual(11);
    expect(writes.every((w) => /^run: \d+\/200 \(\d+%\) piece \d+\n$/.test(w))).toBe(true);
    // biome-ignore lint/suspicious/noControlCharactersInRegex: the test is that no carriage return or escape sequence reaches a non-terminal
    expect(writes.join('')).not.toMatch(/[\r\x1b]/);
  });
});
