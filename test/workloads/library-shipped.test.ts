// workload(name) finds a shipped workload or its stream form, and refuses an unknown name with
// the closest shipped one.

import { describe, expect, it } from 'vitest';
import { InvalidArgumentError } from '../../src/errors.js';
import { shippedWorkloads, workload } from '../../src/workloads/library.js';
import { thrownBy } from './workload-helpers.js';

describe('shipped workloads', () => {
  it('lists spmm, bfs, msbfs, gcn, sage and pagerank, sorted', () => {
    expect(shippedWorkloads()).toEqual(['bfs', 'gat', 'gcn', 'msbfs', 'pagerank', 'sage', 'spmm']);
  });

  it('loads each one by name, as the batch form', () => {
    for (const name of shippedWorkloads()) {
      const w = workload(name);
      expect(w.name).toBe(name);
      expect(w.stream).toBe(false);
    }
  });

  it('gives the stream form for stream:<name>, otherwise the same workload', () => {
    const s = workload('stream:gcn');
    const b = workload('gcn');
    expect(s.stream).toBe(true);
    expect(s.name).toBe('gcn');
    expect(s.definition).toEqual(b.definition);
    expect(s.order).toEqual(b.order);
  });

  it('refuses a misspelt name with the closest shipped one', () => {
    const e = thrownBy(() => workload('gcm'));
    expect(e).toBeInstanceOf(InvalidArgumentError);
    expect(e.message).toBe('workload: no shipped workload "gcm" (did you mean "gcn"?)');
    expect(thrownBy(() => workload('stream:pagerenk')).message).toContain('(did you mean "pagerank"?)');
  });

  it('refuses a name like no other with the list of shipped workloads', () => {
    const e = thrownBy(() => workload('transformer'));
    expect(e).toBeInstanceOf(InvalidArgumentError);
    expect(e.message).toBe('workload: no shipped workload "transformer" (workloads: bfs, gat, gcn, msbfs, pagerank, sage, spmm)');
  });

  it('refuses a name that is not a string, and stream: twice', () => {
    expect(thrownBy(() => workload(7 as unknown as string)).message).toBe('workload: name must be a string, got 7');
    expect(thrownBy(() => workload('stream:stream:gcn'))).toBeInstanceOf(InvalidArgumentError);
  });
});
