// Two layouts of one partition in the same order need no reordering, and the answer is kept per
// pair (distributed/row-orders.ts): a GCN's products read A while its dense values were laid out
// by the graph, and the map rebuilt on every product took a quarter of a two-rank run.

import { describe, expect, it } from 'vitest';
import { orderBetween } from '../../src/distributed/row-orders.js';

describe('orderBetween', () => {
  it('is null for two layouts with the same rows in the same order', () => {
    expect(orderBetween({ rows: Int32Array.of(4, 0, 7) }, { rows: Int32Array.of(4, 0, 7) })).toBeNull();
  });

  it("gives where each of the target's rows sits in the source, once per pair", () => {
    const from = { rows: Int32Array.of(4, 0, 7) };
    const to = { rows: Int32Array.of(0, 7, 4) };
    const order = orderBetween(from, to);
    expect(Array.from(order!)).toEqual([1, 2, 0]);
    expect(orderBetween(from, to)).toBe(order);
    expect(Array.from(orderBetween(to, from)!)).toEqual([2, 0, 1]);
  });
});
