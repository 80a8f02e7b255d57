// BFS stepping as a part of a run: a single-source BFS planned on a device that can hand a
// search on is run level group by level group across the devices (bfs-steps.ts), where the
// graph's frontier profile predicts that stepping pays. Every other piece runs as planned.

import { CsrMatrix } from '../data/csr.js';
import type { System } from '../devices/system.js';
import { InvalidArgumentError } from '../errors.js';
import type { CostModel } from '../cost/model.js';
import type { Plan } from '../scheduler/schedule.js';
import type { BoundOp } from '../workloads/bind.js';
import type { Value } from '../workloads/reference.js';
import { type BfsStepRecord, resumableBfsDevices, steppedBfs, steppingPays } from './bfs-steps.js';
import type { PieceResult } from './piece.js';

/** What stepping needs from the run it is part of. */
export interface SteppingHost {
  readonly signal: AbortSignal | undefined;
  readonly recoverable: boolean;
  isLost(d: number): boolean;
  /** Whether device d may take no new step now (over the run's allowance). */
  refuses(d: number): boolean;
  /** A device failed under a step: the run treats it as lost. */
  lose(d: number): void;
  /** Observed / predicted BFS time on device d in this run so far. */
  bfsScale(d: number): number;
}

export class BfsStepping {
  private readonly system: System;
  private readonly model: CostModel;
  /** Devices that can resume a search; empty when stepping is off for this run. */
  private readonly devices: readonly number[];

  constructor(
    plan: Plan,
    enabled: boolean,
    private readonly host: SteppingHost,
  ) {
    this.system = plan.problem.system;
    this.model = plan.problem.model;
    // The level-by-level choice minimises time, so it serves plans led by time; a plan led by
    // energy, or bound by an energy budget, runs its searches in one call as planned.
    const rule = plan.policyRule;
    const timeLed =
      rule === 'min-time' || rule === 'min-edp' || (typeof rule === 'object' && rule !== null && (rule.weights.time ?? 0) > (rule.weights.energy ?? 0));
    // Only devices the plan may use: an excluded device is never a step's, and with one device left
    // stepping has nowhere to go and only pays its calls (a CPU-only BFS of wing: 8.4 ms stepped, 3.8 whole).
    const allowed = plan.problem.allowed;
    this.devices = enabled && timeLed && plan.constraints.energyBudget === undefined ? resumableBfsDevices(this.system).filter((d) => allowed.includes(d)) : [];
  }

  /** Whether a piece of `op` may be stepped at all (cheap; checked before each piece). */
  applies(op: BoundOp): boolean {
    return op.kind === 'bfs' && this.devices.length > 1;
  }

  /** Run the search in steps where that is predicted to pay; undefined when it runs as one call. */
  async run(op: BoundOp, x: readonly Value[], planned: number): Promise<(PieceResult & { steps: readonly BfsStepRecord[] }) | undefined> {
    const devices = this.devices;
    if (!this.applies(op) || !devices.includes(planned)) return undefined;
    const graph = x[0];
    if (!(graph instanceof CsrMatrix) || graph.rows !== graph.cols || op.source === undefined) return undefined;
    const host = this.host;
    const ctx = {
      system: this.system,
      model: this.model,
      graph,
      source: op.source,
      planned,
      usable: (d: number) => !host.isLost(d) && !host.refuses(d),
      scale: (d: number) => host.bfsScale(d),
      ...(host.signal ? { signal: host.signal } : {}),
      onStepError: (d: number, err: unknown): boolean => {
        if (!host.recoverable || err instanceof InvalidArgumentError) return false;
        host.lose(d);
        return true;
      },
    };
    if (devices.filter((d) => !host.isLost(d) && !host.refuses(d)).length < 2 || !steppingPays(ctx, devices).pays) return undefined;
    const r = await steppedBfs(ctx, devices);
    return { output: r.depth, seconds: r.seconds, joules: r.joules, source: r.source, energySource: r.energySource, steps: r.steps };
  }
}
