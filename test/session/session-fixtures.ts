// Inputs for the session tests: the executor tests' mixed system (host CPU, simulated GPU and
// CGRA) with the spec-derived model, a small power-law graph, and the declared GCN bound to it,
// whose data the imperative calls reuse so both paths see the same values.

import { CostModel } from '../../src/cost/model.js';
import type { CsrMatrix } from '../../src/data/csr.js';
import type { DenseMatrix } from '../../src/data/dense.js';
import type { System } from '../../src/devices/system.js';
import { kroneckerGraph } from '../../src/generators/index.js';
import { type Session, session, type SessionOptions } from '../../src/session/session.js';
import { bindWorkload, type BoundWorkload } from '../../src/workloads/bind.js';
import { workload } from '../../src/workloads/library.js';
import { mixedSystem } from '../executor/executor-fixtures.js';

export { expectSameValue } from '../executor/executor-fixtures.js';

/** A system and model for a test file (the model learns from runs: make one per comparison). */
export function machine(): { system: System; model: CostModel } {
  const system = mixedSystem();
  return { system, model: new CostModel(system) };
}

/** A power-law graph of 256 vertices. */
export function smallGraph(seed = 1): CsrMatrix {
  return kroneckerGraph({ scale: 8, seed });
}

/** Planning from the model alone (no probes), runs that do not re-plan: deterministic plans. */
export function quietSession(system: System, model: CostModel, options: SessionOptions = {}): Session {
  return session({ system, model, probe: false, ...options, run: { replan: false, learn: false, ...options.run } });
}

/** The declared gcn bound to `graph`, and its inputs by name (A normalised, X, W1, W2 generated). */
export function declaredGcn(graph: CsrMatrix): { bound: BoundWorkload; A: CsrMatrix; X: DenseMatrix; W1: DenseMatrix; W2: DenseMatrix } {
  const bound = bindWorkload(workload('gcn'), graph);
  const by = (name: string): unknown => bound.values.find((v) => v.name === name)!.data;
  return { bound, A: by('A') as CsrMatrix, X: by('X') as DenseMatrix, W1: by('W1') as DenseMatrix, W2: by('W2') as DenseMatrix };
}
