// OnlineCorrection survives a round trip through a plain object (and JSON), and rejects a
// malformed snapshot by the field at fault.

import { describe, expect, it } from 'vitest';
import { OnlineCorrection } from '../../src/cost/fit.js';

describe('OnlineCorrection snapshot', () => {
  it('restores the same factors, counts and future behaviour', () => {
    const a = new OnlineCorrection({ window: 5, maxStep: 1.5 });
    for (let i = 0; i < 3; i++) a.observe('cpu/spmv', 1, 3);
    a.observe('gpu/spmm', 2, 1);
    const b = OnlineCorrection.fromObject(JSON.parse(JSON.stringify(a.toObject())));
    expect(b.options).toEqual(a.options);
    for (const key of ['cpu/spmv', 'gpu/spmm']) {
      expect(b.factor(key)).toBe(a.factor(key));
      expect(b.count(key)).toBe(a.count(key));
    }
    expect(b.observe('cpu/spmv', 1, 3)).toBe(a.observe('cpu/spmv', 1, 3));
  });

  it('rejects malformed snapshots naming the field', () => {
    const good = new OnlineCorrection();
    good.observe('k', 1, 2);
    const snap = good.toObject();
    const bad = (patch: object) => ({ ...snap, entries: [{ ...snap.entries[0]!, ...patch }] });
    expect(() => OnlineCorrection.fromObject({ ...snap, version: 2 })).toThrow(/^OnlineCorrection\.fromObject: snapshot\.version must be 1/);
    expect(() => OnlineCorrection.fromObject(bad({ logFactor: NaN }))).toThrow(/snapshot\.entries\[0\]\.logFactor must be a finite number/);
    expect(() => OnlineCorrection.fromObject(bad({ logFactor: 10 }))).toThrow(/snapshot\.entries\[0\]\.logFactor must be in/);
    expect(() => OnlineCorrection.fromObject(bad({ window: [0, 'x'] }))).toThrow(/snapshot\.entries\[0\]\.window\[1\]/);
    expect(() => OnlineCorrection.fromObject(bad({ count: 0 }))).toThrow(/snapshot\.entries\[0\]\.count/);
    expect(() => OnlineCorrection.fromObject({ ...snap, entries: [snap.entries[0], snap.entries[0]] })).toThrow(/appears twice/);
    expect(() => OnlineCorrection.fromObject({ ...snap, options: { ...snap.options, maxFactor: 0.5 } })).toThrow(
      /^OnlineCorrection\.fromObject: snapshot\.options: OnlineCorrection: maxFactor/,
    );
  });
});
