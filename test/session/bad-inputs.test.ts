// Bad calls and options are refused with typed errors naming the function and the value: shapes
// and operand kinds at the call (synchronously), misspelled option names with the closest name,
// calls on a closed session, handles of another session, mixed precisions.

import { expect, it } from 'vitest';
import { DenseMatrix } from '../../src/data/dense.js';
import { InvalidArgumentError, SessionClosedError } from '../../src/errors.js';
import { denseFeatures } from '../../src/generators/index.js';
import { Handle } from '../../src/session/handle.js';
import { type Session, session } from '../../src/session/session.js';
import { machine, quietSession, smallGraph } from './session-fixtures.js';

const graph = smallGraph();
const x = denseFeatures({ rows: graph.cols, cols: 4, seed: 1 });
const short = denseFeatures({ rows: 10, cols: 4, seed: 1 });
const { system, model } = machine();
const open = (): Session => quietSession(system, model);

it('rejects wrong shapes at the call, naming the call and the shapes', () => {
  const s = open();
  expect(() => s.spmm(graph, short)).toThrow(InvalidArgumentError);
  expect(() => s.spmm(graph, short)).toThrow(`session.spmm: x has 10 rows but a has ${graph.cols} columns (a is ${graph.rows} x ${graph.cols})`);
  expect(() => s.spmv(graph, x)).toThrow(/^session\.spmv: x must be a one-column vector, x is 256 x 4/);
  expect(() => s.gemm(x, x)).toThrow(/^session\.gemm: x is 256 x 4 but w is 256 x 4: inner dimensions differ/);
  const h = s.relu(x);
  expect(() => s.add(h, short)).toThrow(/^session\.add: operands differ in shape: x is 256 x 4, y is 10 x 4/);
  expect(() => s.bfs(graph, { source: 9999 })).toThrow(/^session\.bfs: source must be/);
  expect(s.pending).toBe(1); // refused calls record nothing
});

it('rejects operands of the wrong kind', () => {
  const s = open();
  expect(() => s.spmm(x as never, x)).toThrow('session.spmm: a must be a CsrMatrix or a handle of a sparse value, got DenseMatrix object');
  expect(() => s.relu(graph as never)).toThrow(/^session\.relu: x must be a DenseMatrix or a handle of a dense value, got CsrMatrix object/);
  expect(() => s.relu(s.bfs(graph) as never)).toThrow(/got handle v1 \(bfs, 1 x 256 depths\)/);
  expect(() => s.relu(undefined as never)).toThrow(/got undefined/);
});

it('refuses misspelled option names with the closest name', () => {
  expect(() => session({ windw: 4 } as never)).toThrow('session: unknown option "windw" (did you mean "window"?)');
  expect(() => session({ polcy: 'min-time' } as never)).toThrow(/did you mean "policy"\?/);
  expect(() => session({ run: { replna: false } } as never)).toThrow(/^session: run: unknown option "replna" \(did you mean "replan"\?\)/);
  expect(() => session({ policy: 'min-tme' as never })).toThrow(/did you mean "min-time"/);
  expect(() => session({ window: 0 })).toThrow(InvalidArgumentError);
  expect(() => session({ policy: 'min-time', objective: 'min-energy' })).toThrow('session: give policy or objective, not both');
  const s = open();
  expect(() => s.affine(x, { scael: 2 } as never)).toThrow('session.affine: unknown option "scael" (did you mean "scale"?)');
  expect(() => s.reduce(x, { op: 'mean' as never })).toThrow(InvalidArgumentError);
});

it('refuses calls on a closed session and handles of another session', async () => {
  const s = open();
  const other = open();
  const h = other.relu(x);
  expect(() => s.relu(h)).toThrow('session.relu: x is handle v1 of another session');
  await s.close();
  expect(s.closed).toBe(true);
  expect(() => s.relu(x)).toThrow(SessionClosedError);
  expect(() => s.relu(x)).toThrow('session.relu: the session is closed');
  await other.close(); // runs what was pending
  expect(h.state).toBe('done');
  expect(h).toBeInstanceOf(Handle);
});

it('keeps one precision per session', () => {
  const s = open();
  s.relu(x);
  const f64 = new DenseMatrix(2, 2, new Float64Array(4));
  expect(() => s.relu(f64)).toThrow(
    'session.relu: x is f64 but this session computes in f32 (set by its first dense input or its precision option); convert it',
  );
});
