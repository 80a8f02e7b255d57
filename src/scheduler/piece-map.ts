// A small map from the pieces of a workload's operators to values.

const SCAN = 8;

/**
 * Values per piece of each operator, found by (device, begin, end). An operator run by the
 * executor has a few pieces, so a scan of its own short list is cheaper than building and
 * hashing a string key per piece (which was a tenth of a small operator's overhead); an
 * operator with many (the scheduler prices every split of every choice) gets a keyed map.
 */
export class PieceMap<T> {
  private readonly lists: ({ d: number; b: number; e: number; v: T }[] | undefined)[];
  private readonly maps: (Map<string, T> | undefined)[];
  constructor(ops: number) {
    this.lists = new Array(ops);
    this.maps = new Array(ops);
  }
  get(op: number, d: number, b: number, e: number): T | undefined {
    const map = this.maps[op];
    if (map) return map.get(`${d}/${b}/${e}`);
    const list = this.lists[op];
    if (list) for (const x of list) if (x.d === d && x.b === b && x.e === e) return x.v;
    return undefined;
  }
  set(op: number, d: number, b: number, e: number, v: T): void {
    const map = this.maps[op];
    if (map) {
      map.set(`${d}/${b}/${e}`, v);
      return;
    }
    let list = this.lists[op];
    if (!list) this.lists[op] = list = [];
    for (const x of list) {
      if (x.d === d && x.b === b && x.e === e) {
        x.v = v;
        return;
      }
    }
    if (list.length < SCAN) {
      list.push({ d, b, e, v });
      return;
    }
    const m = new Map<string, T>();
    for (const x of list) m.set(`${x.d}/${x.b}/${x.e}`, x.v);
    m.set(`${d}/${b}/${e}`, v);
    this.maps[op] = m;
    this.lists[op] = undefined;
  }
}
