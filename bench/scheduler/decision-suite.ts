// The decision-quality suite: for fixed cases (workload x dataset x objective x system), how
// often schedule()'s pick is within 1% of the oracle's best for its objective, the loss when it
// is not, and the pick's throughput and energy efficiency against a static mapping and against
// the GPU alone. Every device in the suite's systems is simulated, so the oracle's costs, and
// with them every figure here, are deterministic given the device parameters.
// The cases are fixed here, not chosen after seeing results.

import { calibrate } from '../../src/cost/calibrate.js';
import { CostModel } from '../../src/cost/model.js';
import { CsrMatrix } from '../../src/data/csr.js';
import { buildSystem, type System, type SystemDescription } from '../../src/devices/system.js';
import { generate, type GeneratorSpec } from '../../src/generators/index.js';
import { type Oracle as OracleT, Oracle } from '../../src/oracle/oracle.js';
import { type Policy, policyKey } from '../../src/scheduler/policy.js';
import { explore, type Exploration, schedule } from '../../src/scheduler/schedule.js';
import { pagerankDefinition } from '../../src/workloads/builder.js';
import { defineWorkload, type Workload } from '../../src/workloads/definition.js';
import { workload as shipped } from '../../src/workloads/library.js';
import { loadDataset } from '../common/datasets.js';

/** Two machines that differ in their GPU and host link; the CGRAs are HyCUBE-style arrays. */
export const SUITE_SYSTEMS: Readonly<Record<string, SystemDescription>> = {
  h100: {
    name: 'suite-h100',
    devices: [
      { name: 'gpu', backend: 'gpu-sim', profile: 'h100-sxm' },
      { name: 'cgra', backend: 'cgra-sim', profile: 'hycube-4x4' },
      { name: 'cgra8', backend: 'cgra-sim', profile: 'hycube-8x8' },
    ],
    links: [{ between: ['host', 'gpu'], profile: 'pcie-gen5-x16' }],
  },
  a100: {
    name: 'suite-a100',
    devices: [
      { name: 'gpu', backend: 'gpu-sim', profile: 'a100-80gb' },
      { name: 'cgra', backend: 'cgra-sim', profile: 'hycube-4x4' },
      { name: 'cgra8', backend: 'cgra-sim', profile: 'hycube-8x8' },
    ],
    links: [{ between: ['host', 'gpu'], profile: 'pcie-gen4-x16' }],
  },
};

export const SUITE_OBJECTIVES = ['min-time', 'min-energy', 'min-edp'] as const;
export type SuiteObjective = (typeof SUITE_OBJECTIVES)[number];

/** Workloads at the sizes the suite uses (pagerank with 2 iterations keeps the oracle exhaustive). */
export function suiteWorkloads(): Record<string, { workload: Workload; params?: Record<string, number> }> {
  return {
    spmm: { workload: shipped('spmm'), params: { k: 32 } },
    bfs: { workload: shipped('bfs') },
    msbfs: { workload: shipped('msbfs'), params: { sources: 32 } },
    gcn: { workload: shipped('gcn') },
    sage: { workload: shipped('sage') },
    pagerank: { workload: defineWorkload(pagerankDefinition(2), 'pagerank-2') },
  };
}

/** Datasets of the CI size (small) and the full size (adds larger ones). */
export const SUITE_DATASETS = {
  ci: ['cora', 'facebook_combined', 'bcsstk13', '4elt'],
  full: ['cora', 'facebook_combined', 'bcsstk13', '4elt', 'citeseer', 'wiki-Vote', 'pubmed', 'bio-pathways', 'email-Enron', 'delaunay_n16', 'luxembourg_osm', 'bcsstk16'],
} as const;

/** The static baseline's training input: a power-law graph none of the cases uses. */
export const TRAINING_INPUT: GeneratorSpec = { kind: 'kronecker', scale: 12, edgeFactor: 8, seed: 4242 };

export interface CaseResult {
  readonly workload: string;
  readonly dataset: string;
  readonly system: string;
  readonly objective: SuiteObjective;
  /** The objective's value (oracle-measured) of schedule()'s pick, the oracle's best, the static mapping and the GPU alone. */
  readonly pick: number;
  readonly best: number;
  readonly static: number;
  readonly gpu: number;
  /** Oracle time and energy of the pick, the static mapping and the GPU alone. */
  readonly pickTime: number;
  readonly pickEnergy: number;
  readonly staticTime: number;
  readonly gpuTime: number;
  readonly gpuEnergy: number;
  readonly optimal: boolean;
  /** (pick - best) / best */
  readonly loss: number;
  readonly pickLabel: string;
  readonly bestLabel: string;
  readonly oracleExhaustive: boolean;
}

export interface SuiteSummary {
  readonly cases: number;
  readonly optimal: number;
  readonly optimalRate: number;
  /** Mean loss over the cases that are not optimal (0 when all are). */
  readonly meanLoss: number;
  /** Geometric means over min-time cases of time ratios (static / pick, gpu / pick). */
  readonly speedupOverStatic: number;
  readonly speedupOverGpu: number;
  /** Geometric mean over min-energy cases of gpu energy / pick energy. */
  readonly energyEfficiencyOverGpu: number;
}

const objectiveValue = (o: SuiteObjective, m: { time: number; energy: number }): number =>
  policyKey(o as Policy, [])({ time: m.time, energy: m.energy, memory: 0, latency: m.time })[0]!;

const geomean = (xs: number[]): number => (xs.length ? Math.exp(xs.reduce((s, x) => s + Math.log(x), 0) / xs.length) : NaN);

export function summarise(results: readonly CaseResult[]): SuiteSummary {
  const optimal = results.filter((r) => r.optimal).length;
  const losses = results.filter((r) => !r.optimal).map((r) => r.loss);
  const time = results.filter((r) => r.objective === 'min-time');
  const energy = results.filter((r) => r.objective === 'min-energy');
  return {
    cases: results.length,
    optimal,
    optimalRate: results.length ? optimal / results.length : NaN,
    meanLoss: losses.length ? losses.reduce((s, x) => s + x, 0) / losses.length : 0,
    speedupOverStatic: geomean(time.map((r) => r.staticTime / r.pickTime)),
    speedupOverGpu: geomean(time.map((r) => r.gpuTime / r.pickTime)),
    energyEfficiencyOverGpu: geomean(energy.map((r) => r.gpuEnergy / r.pickEnergy)),
  };
}

export interface SuiteOptions {
  readonly size: 'ci' | 'full';
  /** Restrict to these workloads / datasets / systems (for tests). */
  readonly workloads?: readonly string[];
  readonly datasets?: readonly string[];
  readonly systems?: readonly string[];
  readonly onCase?: (r: CaseResult) => void;
  readonly onSkip?: (what: string, why: string) => void;
}

/** Calibrate a suite system's (simulated, so deterministic) devices on the quick input set. */
export async function suiteModel(system: System): Promise<CostModel> {
  const how = process.env['DYPE_SUITE_MODEL'] ?? 'quick';
  if (how === 'uncalibrated') return new CostModel(system);
  return new CostModel(system, await calibrate(system, { quick: how !== 'full' }));
}

export async function runSuite(options: SuiteOptions): Promise<{ results: CaseResult[]; summary: SuiteSummary }> {
  const results: CaseResult[] = [];
  const workloads = suiteWorkloads();
  const training = generate(TRAINING_INPUT) as CsrMatrix;
  for (const sysName of options.systems ?? Object.keys(SUITE_SYSTEMS)) {
    const system = buildSystem(SUITE_SYSTEMS[sysName]!, `suite ${sysName}`);
    const model = await suiteModel(system);
    for (const [wName, w] of Object.entries(workloads)) {
      if (options.workloads && !options.workloads.includes(wName)) continue;
      const common = { system, model, ...(w.params ? { params: w.params } : {}), maxPoints: 0 };
      // Static mappings: the oracle's best on the training input, per objective.
      const trainEx = await explore(w.workload, training, common);
      const trainOracle = await Oracle.measure(trainEx.problem, system);
      const statics = new Map<SuiteObjective, ReturnType<typeof portable>>();
      for (const o of SUITE_OBJECTIVES) statics.set(o, portable(trainEx, trainOracle, o));
      for (const dName of options.datasets ?? SUITE_DATASETS[options.size]) {
        const loaded = await loadDataset(dName, 'f32');
        if (!loaded.matrix) {
          options.onSkip?.(dName, loaded.reason);
          continue;
        }
        // Graph workloads read the structure; weights (negative in FEM matrices) would not
        // normalise. SpMM keeps the values.
        const m = loaded.matrix;
        const data = wName === 'spmm' || !m.values ? m : new CsrMatrix({ rows: m.rows, cols: m.cols, rowPtr: m.rowPtr, colIdx: m.colIdx });
        let oracle: OracleT | undefined;
        for (const objective of SUITE_OBJECTIVES) {
          const plan = await schedule(w.workload, data, { ...common, policy: objective, staticMapping: statics.get(objective)! });
          oracle ??= await Oracle.measure(plan.problem, system);
          const score = (g: Int32Array): { v: number; time: number; energy: number } => {
            const m = oracle!.metrics(g);
            return { v: objectiveValue(objective, { time: m.makespan, energy: m.energy }), time: m.makespan, energy: m.energy };
          };
          const best = oracle.optimum((m) => objectiveValue(objective, m));
          const pick = score(plan.chosen.genome);
          const stat = plan.baselines.find((b) => b.name === 'static');
          const gpu = plan.baselines.find((b) => b.name === 'gpu alone');
          const s = stat?.genome ? score(stat.genome) : { v: NaN, time: NaN, energy: NaN };
          const g = gpu?.genome ? score(gpu.genome) : { v: NaN, time: NaN, energy: NaN };
          const r: CaseResult = {
            workload: wName,
            dataset: dName,
            system: sysName,
            objective,
            pick: pick.v,
            best: best.value,
            static: s.v,
            gpu: g.v,
            pickTime: pick.time,
            pickEnergy: pick.energy,
            staticTime: s.time,
            gpuTime: g.time,
            gpuEnergy: g.energy,
            optimal: pick.v <= best.value * 1.01,
            loss: (pick.v - best.value) / best.value,
            pickLabel: plan.chosen.label,
            bestLabel: plan.problem.bound.ops.map((op, i) => `${op.id}:${plan.problem.choices[i]![best.genome[i]!]!.label}`).join(', '),
            oracleExhaustive: best.exhaustive,
          };
          results.push(r);
          options.onCase?.(r);
        }
      }
    }
  }
  return { results, summary: summarise(results) };
}

function portable(ex: Exploration, oracle: OracleT, objective: SuiteObjective): { op: string; devices: string[]; shares: number[] }[] {
  const best = oracle.optimum((m) => objectiveValue(objective, m));
  return ex.problem.bound.ops.map((op, i) => {
    const ch = ex.problem.choices[i]![best.genome[i]!]!;
    return { op: op.id, devices: ch.parts.map((p) => oracle.system.devices[p.device]!.name), shares: ch.parts.map((p) => p.fraction) };
  });
}
