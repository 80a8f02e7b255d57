// How one layout's local rows map onto another's. Every sparse input of a distributed run gets
// its own layout (DistributedCsr) of the same partition, and a dense value lives in the order of
// the layout it was made in; an operator reading it beside another input's layout needs it in
// that one's order.

import type { DistributedCsr } from './halo.js';

type Layout = Pick<DistributedCsr, 'rows'>;

/** Orders already worked out, per pair of layouts (null: the same order). */
const orders = new WeakMap<Layout, WeakMap<Layout, Int32Array | null>>();

/**
 * Where each of `to`'s local rows sits among `from`'s (both layouts of one partition), or null
 * when the two orders are the same. Kept per pair: a GCN's dense values are laid out by its first
 * sparse input (the graph) and its products read A, two layouts of the same rows in the same
 * order, and building the map on every product took a quarter of a two-rank GCN on delaunay_n16.
 */
export function orderBetween(from: Layout, to: Layout): Int32Array | null {
  let byTarget = orders.get(from);
  if (!byTarget) orders.set(from, (byTarget = new WeakMap()));
  let order = byTarget.get(to);
  if (order !== undefined) return order;
  const same = from.rows.length === to.rows.length && from.rows.every((g, l) => to.rows[l] === g);
  if (same) order = null;
  else {
    const at = new Map<number, number>();
    from.rows.forEach((g, l) => at.set(g, l));
    order = Int32Array.from(to.rows, (g) => at.get(g)!);
  }
  byTarget.set(to, order);
  return order;
}
