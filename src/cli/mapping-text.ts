// Mappings in a form that fits a table cell: the device most operators run on, then only the
// operators that run elsewhere or split (`gpu; agg2 on cpu 5% + gpu 95%`), instead of one
// `op:device` per operator.

/** One operator's id and the labels of its choices (an Exploration's `operators`). */
export interface OperatorChoices {
  readonly id: string;
  readonly choices: readonly string[];
}

/**
 * The short form of a mapping. `label` is the mapping's own (`p1:cpu 76% + cgra 24%, x1:cpu`):
 * a plan's chosen split re-balanced after its probe is a choice the exploration's `operators`
 * do not list, and `dype run pagerank` printed "Plan (min-time): ?; x1 on cpu, ..." from them.
 * @example shortMapping(ops, genome) === 'all gpu' or 'gpu; agg2 on cpu 5% + gpu 95%'
 */
export function shortMapping(operators: readonly OperatorChoices[], genome: ArrayLike<number>, label?: string): string {
  const labelled = new Map<string, string>();
  for (const part of label?.split(', ') ?? []) {
    const colon = part.indexOf(':');
    if (colon > 0) labelled.set(part.slice(0, colon), part.slice(colon + 1));
  }
  const picks = operators.map((o, i) => o.choices[genome[i]!] ?? labelled.get(o.id) ?? '?');
  const counts = new Map<string, number>();
  for (const p of picks) if (!p.includes('%')) counts.set(p, (counts.get(p) ?? 0) + 1);
  let main: string | undefined;
  for (const [device, n] of counts) if (main === undefined || n > counts.get(main)!) main = device;
  if (main === undefined || counts.get(main)! < 2) return operators.map((o, i) => `${o.id} on ${picks[i]}`).join(', ');
  const others = operators.flatMap((o, i) => (picks[i] === main ? [] : [`${o.id} on ${picks[i]}`]));
  return others.length === 0 ? `all ${main}` : `${main}; ${others.join(', ')}`;
}
