// Roofline costs of the operators the devices do not run as native sparse kernels (GEMM,
// element-wise, reductions, SDDMM): time = launch + max(flops / peak, bytes / bandwidth), energy
// from the device's power or per-operation energies. The rates are the device's own (its
// traits): the CPU's are its native dense kernels' measured per-core rates (devices/cpu/*.json),
// the simulators' their profiles'. Modelled, and labelled so wherever shown.

import type { Precision } from '../data/dense.js';
import type { Device } from '../devices/device.js';
import type { DenseTraits } from '../devices/traits.js';
import { describe, InvalidArgumentError } from '../errors.js';

/** A device's dense throughput (its `traits.dense`). */
export type DenseRates = DenseTraits;

/**
 * Dense rates of a device, as its backend states them.
 * @throws {InvalidArgumentError} for something that is not a device with traits.
 */
export function denseRates(device: Device): DenseRates {
  const dense = (device as { traits?: { dense?: DenseTraits } } | null)?.traits?.dense;
  if (dense === undefined) throw new InvalidArgumentError(`denseRates: device must be a device of a System (with traits), got ${describe(device)}`);
  return dense;
}

/** Modelled time and energy of a dense operator of `flops` and `bytes` on a device. */
export function denseCost(rates: DenseRates, flops: number, bytes: number, precision: Precision): { seconds: number; joules: number } {
  const seconds = rates.launchSeconds + Math.max(flops / rates.flopsPerSecond[precision], bytes / rates.bytesPerSecond);
  return { seconds, joules: seconds * rates.busyWatts + flops * rates.joulesPerFlop + bytes * rates.joulesPerByte };
}
