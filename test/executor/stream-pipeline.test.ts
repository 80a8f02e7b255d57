// A stream's runs compose into one pipelined timeline: an input starts as soon as the devices and
// links it uses are free of the earlier inputs, never overlapping them on any one resource and
// never reordering an input's own pieces.

import { describe, expect, it } from 'vitest';
import { pipelinedMakespan } from '../../src/executor/stream.js';

type Run = Parameters<typeof pipelinedMakespan>[0][number];
const piece = (device: string, start: number, finish: number) => ({ device, start, finish }) as Run['pieces'][number];
const copy = (from: string, to: string, start: number, finish: number) => ({ value: 0, from, to, bytes: 1, start, finish });
const run = (pieces: Run['pieces'], transfers: Run['transfers'] = []): Run => ({
  pieces,
  transfers,
  makespan: Math.max(...pieces.map((p) => p.finish), ...transfers.map((t) => t.finish)),
});

describe('pipelinedMakespan', () => {
  it('overlaps a two-stage stream: the CPU stage of input 2 runs while the GPU runs input 1', () => {
    const stage = run([piece('cpu', 0, 1), piece('gpu', 1, 2)]);
    const r = pipelinedMakespan([stage, stage, stage]);
    expect(r.starts).toEqual([0, 1, 2]);
    expect(r.seconds).toBe(4); // against 6 one input at a time
  });

  it('keeps a resource busy by one input at a time, copies on their link direction included', () => {
    const a = run([piece('gpu', 1, 3)], [copy('host', 'gpu', 0, 1)]);
    const r = pipelinedMakespan([a, a]);
    // The second input's copy may start at 1 (the link is free), but its GPU piece must wait for 3.
    expect(r.starts).toEqual([0, 2]);
    expect(r.seconds).toBe(5);
  });

  it('one device used throughout gives no overlap: the sum of the makespans', () => {
    const a = run([piece('cpu', 0, 2), piece('cpu', 2, 3)]);
    const r = pipelinedMakespan([a, a, a]);
    expect(r.seconds).toBe(9);
    expect(r.starts).toEqual([0, 3, 6]);
  });

  it('inputs never start before the ones before them, even when they would fit earlier', () => {
    const long = run([piece('gpu', 0, 5)]);
    const short = run([piece('cpu', 0, 1)]);
    const r = pipelinedMakespan([long, short, long]);
    expect(r.starts).toEqual([0, 0, 5]);
    expect(r.seconds).toBe(10);
  });
});
