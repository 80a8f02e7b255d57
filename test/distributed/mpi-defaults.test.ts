// The Open MPI settings a rank starts with: ranks on one host copy large messages through the
// shared segment, not by the kernel's cross-process copy (CMA), unless the environment says
// otherwise; a setting the user made is kept.

import { describe, expect, it } from 'vitest';
import { applyMpiDefaults, MPI_DEFAULT_SETTINGS } from '../../src/distributed/mpi.js';

describe('applyMpiDefaults', () => {
  it('sets the single-copy mechanism to none for both names of the shared-memory transport', () => {
    const env: Record<string, string | undefined> = { PATH: '/bin' };
    expect(applyMpiDefaults(env).sort()).toEqual(['OMPI_MCA_btl_sm_single_copy_mechanism', 'OMPI_MCA_btl_vader_single_copy_mechanism']);
    expect(env['OMPI_MCA_btl_vader_single_copy_mechanism']).toBe('none');
    expect(env['OMPI_MCA_btl_sm_single_copy_mechanism']).toBe('none');
    expect(env['PATH']).toBe('/bin');
  });

  it('keeps a setting the user made and sets nothing twice', () => {
    const env: Record<string, string | undefined> = { OMPI_MCA_btl_vader_single_copy_mechanism: 'cma' };
    expect(applyMpiDefaults(env)).toEqual(['OMPI_MCA_btl_sm_single_copy_mechanism']);
    expect(env['OMPI_MCA_btl_vader_single_copy_mechanism']).toBe('cma');
    expect(applyMpiDefaults(env)).toEqual([]);
    expect(Object.keys(MPI_DEFAULT_SETTINGS).every((k) => env[k] !== undefined)).toBe(true);
  });
});
