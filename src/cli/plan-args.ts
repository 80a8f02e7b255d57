// What `dype explore` and `dype run` share: the workload (a shipped name or a JSON file), the
// input, the system and its cost model, and the planning options, parsed from flags and checked
// before anything is computed.

import type { CostModel } from '../cost/model.js';
import { loadCostModel } from '../cost/store.js';
import { detectSystem, loadSystem, type System } from '../devices/system.js';
import { InvalidArgumentError } from '../errors.js';
import { type Plan, schedule, type ScheduleOptions } from '../scheduler/schedule.js';
import { pagerankDefinition } from '../workloads/builder.js';
import { defineWorkload, type Workload } from '../workloads/definition.js';
import { loadWorkload, shippedWorkloads, workload as shippedWorkload } from '../workloads/library.js';
import { INPUT_FLAGS, inputFlagsHelp, inputRequest, loadInput, type LoadedInput, vertexArg } from './input.js';
import { choiceFlag, type FlagValues, intFlag, type Options } from './parse.js';
import { UsageError } from './usage-error.js';

/** Flags both planning commands take. */
export const PLAN_FLAGS = {
  ...INPUT_FLAGS,
  source: { type: 'string' },
  iterations: { type: 'string' },
  system: { type: 'string' },
  objective: { type: 'string' },
  deadline: { type: 'string' },
  'energy-budget': { type: 'string' },
  exclude: { type: 'string' },
  param: { type: 'string', multiple: true },
  seed: { type: 'string' },
  budget: { type: 'string' },
  'no-splits': { type: 'boolean' },
  'no-probe': { type: 'boolean' },
  json: { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
} as const satisfies Options;

/** The help text of the flags above, shared by both commands. */
export const PLAN_FLAGS_HELP = `${inputFlagsHelp()}

Workload:
  --source V           where a BFS starts: a vertex's name or id as in an edge list, else a
                       0-based index (default max-degree: the vertex of largest degree)
  --iterations N       PageRank's power iterations (default 4)
  --param NAME=VALUE   a workload parameter (repeatable; e.g. --param hidden=32, --param sources=16)

Planning:
  --system FILE        a system description (docs/system.md) instead of the detected one
  --objective O        what the chosen plan minimises: time (default), energy or edp (energy x time)
  --deadline T         only plans that finish within T (seconds, or with a unit: 2ms, 500us)
  --energy-budget E    only plans that use at most E (joules, or with a unit: 50mJ, 2J)
  --exclude DEVICES    devices to leave out, comma-separated (e.g. cgra,gpu)
  --seed N             seed of the search and of generated dense inputs (default 1)
  --budget N           evaluations the NSGA-II search may make on large spaces (default 2000)
  --no-splits          run every operator whole on one device (no row or source splits)
  --no-probe           plan from the cost model alone: do not run the input's operators on each
                       device first (probes: a sample of a large input; the parts of a chosen split)

Energy counts the active energy of every piece plus the idle power of the devices a plan uses,
over the time they wait; a device the plan leaves alone (or --exclude removes) is not billed.`;

const POLICIES = { time: 'min-time', energy: 'min-energy', edp: 'min-edp' } as const;
export type ObjectiveName = keyof typeof POLICIES;

export interface PlanArgs {
  readonly workload: Workload;
  /** The workload as the user named it: `stream:gcn` for a stream, the name otherwise. */
  readonly workloadLabel: string;
  readonly input: LoadedInput;
  readonly system: System;
  readonly model: CostModel;
  readonly objective: ObjectiveName;
  /** Options for schedule(), less the system and model. */
  readonly options: ScheduleOptions;
}

type Values = FlagValues;

const str = (v: Values[string]): string | undefined => (typeof v === 'string' ? v : undefined);

/** A quantity with an optional SI-prefixed unit: `2ms` -> 0.002 for unit `s`. */
export function quantityFlag(command: string, name: string, raw: string | undefined, unit: 's' | 'J'): number | undefined {
  if (raw === undefined) return undefined;
  const m = /^\s*([0-9]*\.?[0-9]+(?:[eE][-+]?\d+)?)\s*(k|m|u|µ|n)?([sJj])?\s*$/.exec(raw);
  const prefixes: Record<string, number> = { k: 1e3, m: 1e-3, u: 1e-6, µ: 1e-6, n: 1e-9 };
  // A prefix needs its unit (`2m` is not a duration), and the unit must be this flag's.
  if (m && (m[3] === undefined || m[3].toLowerCase() === unit.toLowerCase()) && !(m[2] !== undefined && m[3] === undefined)) {
    const v = Number(m[1]) * (m[2] ? prefixes[m[2]]! : 1);
    if (Number.isFinite(v) && v > 0) return v;
  }
  const example = unit === 's' ? '0.002, 2ms or 500us' : '0.05, 50mJ or 2J';
  throw new UsageError(
    `${command}: --${name} must be a positive number of ${unit === 's' ? 'seconds' : 'joules'} (e.g. ${example}), got ${JSON.stringify(raw)}`,
  );
}

/** `name=value` pairs of --param into numbers. */
function paramsFlag(command: string, raw: Values[string]): Record<string, number> | undefined {
  const list = Array.isArray(raw) ? raw : typeof raw === 'string' ? [raw] : [];
  if (list.length === 0) return undefined;
  const out: Record<string, number> = {};
  for (const item of list) {
    const m = /^([A-Za-z_][\w-]*)=(.+)$/.exec(item);
    const v = m ? Number(m[2]) : NaN;
    if (!m || !Number.isFinite(v)) throw new UsageError(`${command}: --param must be NAME=NUMBER (e.g. hidden=32), got ${JSON.stringify(item)}`);
    out[m[1]!] = v;
  }
  return out;
}

/** The workload with --source set on its BFS operators. */
function withSource(command: string, w: Workload, source: number | 'max-degree'): Workload {
  const ops = w.definition.operators.filter((o) => o.kind === 'bfs');
  if (ops.length === 0)
    throw new UsageError(`${command}: --source sets where a BFS starts, and ${w.name} has no bfs operator (msbfs picks its sources: --param sources=N)`);
  const definition = { ...w.definition, operators: w.definition.operators.map((o) => (o.kind === 'bfs' ? { ...o, params: { ...o.params, source } } : o)) };
  const out = defineWorkload(definition, `${w.name} --source ${source}`);
  return w.stream ? { ...out, stream: true } : out;
}

/** PageRank with --iterations power iterations. */
function withIterations(command: string, w: Workload, iterations: number): Workload {
  if (w.name !== 'pagerank') throw new UsageError(`${command}: --iterations sets PageRank's power iterations, and the workload is ${w.name}`);
  const damping = w.definition.params?.['damping'];
  const out = defineWorkload(pagerankDefinition(iterations, typeof damping === 'number' ? damping : 0.85), `pagerank --iterations ${iterations}`);
  return w.stream ? { ...out, stream: true } : out;
}

/**
 * Schedule with the planning flags, adding a hint to a refusal of the input's values: binding
 * a workload checks them (GCN's normalisation needs positive row sums) and --pattern drops them.
 */
export async function schedulePlan(args: PlanArgs, extra: ScheduleOptions): Promise<Plan> {
  try {
    return await schedule(args.workload, args.input.matrix, { ...args.options, system: args.system, model: args.model, ...extra });
  } catch (e) {
    if (e instanceof InvalidArgumentError && args.input.matrix.values !== undefined) {
      throw new InvalidArgumentError(`${e.message} (the input's values are used as edge weights; --pattern uses its sparsity pattern alone)`, { cause: e });
    }
    throw e;
  }
}

/**
 * --exclude names devices of the system, and leaves at least one: `--exclude tpu` was refused by
 * System.device ("no device "tpu" in system detected"), naming neither the flag nor the devices,
 * and `--exclude cpu,gpu,cgra` failed with exit code 1 after the input was bound.
 */
function checkExclude(command: string, exclude: readonly string[], system: System): void {
  const names = system.devices.map((d) => d.name);
  const where = system.name === 'detected' ? 'the detected system' : `system ${system.name}`;
  for (const name of exclude) {
    if (!names.includes(name)) {
      throw new UsageError(`${command}: --exclude names no device of ${where}: ${JSON.stringify(name)} (its devices: ${names.join(', ')})`);
    }
  }
  if (names.every((n) => exclude.includes(n))) {
    throw new UsageError(`${command}: --exclude ${exclude.join(',')} leaves no device to plan on (the devices of ${where}: ${names.join(', ')})`);
  }
}

/** The workload argument: a shipped name, `stream:NAME`, or a path to a JSON definition. */
export async function resolveWorkloadArg(name: string): Promise<Workload> {
  if (name.endsWith('.json') || name.includes('/')) return loadWorkload(name);
  return shippedWorkload(name);
}

/**
 * Parse and check the planning flags, then load the workload, input, system and cost model.
 * The caller disposes `system`.
 */
export async function planArgs(command: string, values: Values, positionals: readonly string[]): Promise<PlanArgs> {
  if (positionals.length > 1) {
    throw new UsageError(
      `${command}: expected at most one WORKLOAD (one of ${shippedWorkloads().join(', ')}, or a .json file), got ${positionals.length} arguments; see dype ${command} --help`,
    );
  }
  const objective = choiceFlag<ObjectiveName>(command, 'objective', str(values['objective']), 'time', ['time', 'energy', 'edp']);
  const deadline = quantityFlag(command, 'deadline', str(values['deadline']), 's');
  const energyBudget = quantityFlag(command, 'energy-budget', str(values['energy-budget']), 'J');
  const seed = intFlag(command, 'seed', str(values['seed']), 1, 0, 2 ** 32 - 1);
  const budget = intFlag(command, 'budget', str(values['budget']), 2000, 1, 10_000_000);
  const params = paramsFlag(command, values['param']);
  const excludeRaw = str(values['exclude']);
  const exclude =
    excludeRaw === undefined
      ? []
      : excludeRaw
          .split(',')
          .map((s) => s.trim())
          .filter(Boolean);
  const iterations = values['iterations'] === undefined ? undefined : intFlag(command, 'iterations', str(values['iterations']), 4, 1, 1000);
  const name = positionals[0] ?? 'gcn';
  let workload = await resolveWorkloadArg(name);
  if (iterations !== undefined) workload = withIterations(command, workload, iterations);
  const input = await loadInput(command, inputRequest(values));
  const sourceRaw = str(values['source']);
  if (sourceRaw !== undefined) workload = withSource(command, workload, vertexArg(command, 'source', sourceRaw, input));
  const workloadLabel = workload.stream ? `stream:${workload.name}` : workload.name;
  const system = typeof values['system'] === 'string' ? await loadSystem(values['system']) : await detectSystem();
  try {
    checkExclude(command, exclude, system);
    const model = await loadCostModel(system);
    const options: ScheduleOptions = {
      policy: POLICIES[objective],
      seed,
      budget,
      ...(deadline !== undefined ? { deadline } : {}),
      ...(energyBudget !== undefined ? { energyBudget } : {}),
      ...(exclude.length ? { exclude } : {}),
      ...(params ? { params } : {}),
      ...(values['no-splits'] ? { splits: false } : {}),
      ...(values['no-probe'] ? { probe: false } : {}),
    };
    return { workload, workloadLabel, input, system, model, objective, options };
  } catch (e) {
    await system.dispose();
    throw e;
  }
}
