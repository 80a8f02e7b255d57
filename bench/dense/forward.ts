// The dense suite's forward part: a GCN (two layers) and a GraphSAGE layer on the CPU alone, the
// executor's whole run (`runPlan`) against the same kernels back to back (`runPiece` per
// operator in topological order, nothing around them), paired round by round. The ratio is what
// the executor adds to the kernels; the goal is at most 1.15. Helpers of dense.ts.

import type { CsrMatrix } from '../../src/data/csr.js';
import { DenseMatrix } from '../../src/data/dense.js';
import type { Device } from '../../src/devices/device.js';
import type { System } from '../../src/devices/system.js';
import { Lifetimes } from '../../src/executor/lifetimes.js';
import { runPiece } from '../../src/executor/piece.js';
import { runPlan } from '../../src/executor/run.js';
import { recycleOutput } from '../../src/kernels/output-pool.js';
import { schedule } from '../../src/scheduler/schedule.js';
import { workload } from '../../src/workloads/library.js';
import type { Value } from '../../src/workloads/reference.js';
import { measurePaired, median, pairedRatio, type PairedSettings } from '../common/measure.js';
import { progress } from '../common/report.js';

export interface ForwardRow {
  readonly workload: string;
  readonly operators: number;
  /** Median ms of the kernels back to back. */
  readonly kernelsMs: number;
  /** Median ms of runPlan. */
  readonly runMs: number;
  /** Median over rounds of runPlan time / kernels time (<= 1.15 is the goal). */
  readonly ratio: number;
}

/** The caller is done with an output: its buffer goes back to the kernels' pool. */
function dropOutput(v: unknown): void {
  if (v instanceof DenseMatrix) recycleOutput(v.data);
}

export async function measureForward(names: readonly string[], graph: CsrMatrix, system: System, settings: PairedSettings): Promise<ForwardRow[]> {
  const device: Device = system.devices[0]!;
  const out: ForwardRow[] = [];
  for (const name of names) {
    const plan = await schedule(workload(name), graph, { system });
    const { bound } = plan.problem;
    // The kernels give their dead intermediates back to the output pool as a run does, so the
    // ratio is the executor's own cost, not a difference in how memory is provisioned; and both
    // candidates give back their outputs, as a caller done with them would (without it, each
    // call's fresh output grows the external memory that starts V8's incremental marking, whose
    // steps then compete with the kernels' threads for the two cores of the CI machine).
    const kernels = async (): Promise<void> => {
      const values: (Value | undefined)[] = bound.values.map((v) => v.data as Value | undefined);
      const lifetimes = new Lifetimes(bound, false);
      for (const op of bound.ops) {
        values[op.output] = (
          await runPiece(
            bound,
            op,
            device,
            op.operands.map((i) => values[i]!),
            0,
            op.units,
          )
        ).output;
        lifetimes.finished(op, values);
      }
      for (const v of bound.outputs) dropOutput(values[v]);
    };
    const run = async (): Promise<void> => {
      for (const v of Object.values((await runPlan(plan)).outputs)) dropOutput(v);
    };
    const { samples } = await measurePaired(
      [
        { name: 'kernels back to back', async: true, fn: kernels },
        { name: 'runPlan', async: true, fn: run },
      ],
      settings,
    );
    const row = {
      workload: name,
      operators: bound.ops.length,
      kernelsMs: median(samples[0]!),
      runMs: median(samples[1]!),
      ratio: pairedRatio(samples[1]!, samples[0]!),
    };
    progress(`dense forward ${name}: kernels ${row.kernelsMs.toFixed(2)} ms, runPlan ${row.runMs.toFixed(2)} ms (x${row.ratio.toFixed(3)})`);
    out.push(row);
  }
  return out;
}
