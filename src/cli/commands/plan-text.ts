// Sentences `dype explore` and `dype run` both print: the input's shape, the system with what
// is measured and what simulated, and the state of the cost model behind the predictions.

import type { Exploration } from '../../scheduler/schedule.js';
import type { LoadedInput } from '../input.js';
import type { PlanArgs } from '../plan-args.js';
import { formatCount } from '../table.js';

/** `65,536 x 65,536, 1,817,942 nonzeros, undirected`. */
export function describeInput(input: LoadedInput): string {
  const a = input.matrix;
  return `${formatCount(a.rows)} x ${formatCount(a.cols)}, ${formatCount(a.nnz)} nonzeros${a.symmetric ? ', undirected' : ''}`;
}

/** `detected: cpu (measured), cgra (cgra-sim, simulated), gpu (gpu-sim, simulated)`. */
export function describeSystem(ex: Pick<Exploration, 'system' | 'devices'>): string {
  return `${ex.system}: ${ex.devices.map((d) => `${d.name} (${d.backend === d.name ? '' : `${d.backend}, `}${d.simulated ? 'simulated' : 'measured'})`).join(', ')}`;
}

/** The cost model's state over the system's devices, e.g. `uncalibrated (spec defaults, +-100%)`. */
export function modelLine(ex: Pick<Exploration, 'devices'>, short: boolean): string {
  const states = new Set(ex.devices.map((d) => d.model));
  const all = [...states];
  if (all.length === 1 && all[0]!.startsWith('uncalibrated')) {
    return short ? 'from an uncalibrated cost model (spec defaults)' : 'uncalibrated (spec defaults, +-100%); run `dype calibrate` for calibrated predictions';
  }
  if (all.length === 1) return short ? `from the cost model, ${all[0]}` : all[0]!;
  const per = ex.devices.map((d) => `${d.name} ${d.model.startsWith('uncalibrated') ? 'uncalibrated' : d.model}`).join(', ');
  return short ? `from the cost model (${per})` : per;
}

/** What every planning command's --json starts with: the command, the workload, the input, the system and the objective. */
export function jsonHead(command: string, args: PlanArgs, ex: Pick<Exploration, 'system' | 'devices'>): Record<string, unknown> {
  const a = args.input.matrix;
  return {
    command,
    workload: args.workloadLabel,
    input: { label: args.input.label, origin: args.input.origin, rows: a.rows, cols: a.cols, nnz: a.nnz, symmetric: a.symmetric },
    system: { name: ex.system, devices: ex.devices },
    objective: args.objective,
  };
}
