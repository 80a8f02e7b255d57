// A short, stable identity for "this machine as dype sees it", so a calibration measured on one
// machine (or with another native build) is never applied on another.

import { createHash } from 'node:crypto';
import { availableParallelism, cpus, totalmem } from 'node:os';
import { describe, InvalidArgumentError } from '../errors.js';
import { nativeAddon } from '../native/addon.js';

export interface MachineFingerprint {
  /** First 16 hex digits of the SHA-256 of `parts`. */
  readonly fingerprint: string;
  /** What went into it, for display ("calibrated on ..."); caller parts are prefixed `extra.`. */
  readonly parts: Readonly<Record<string, string>>;
}

/**
 * Fingerprint the machine: CPU model, logical CPU count, total memory in GiB (rounded, so a
 * kernel reserving a few MiB more after an update does not invalidate calibrations), platform
 * and architecture, Node.js major version, and the native addon's ABI (`unavailable` when it is
 * not built), plus `extra` parts from the caller, such as hashes of device profiles.
 *
 * @param extra caller parts, string to string.
 * @throws {InvalidArgumentError} when `extra` is not a plain object of non-empty keys with string values.
 * @example
 * const { fingerprint, parts } = machineFingerprint({ devices: profilesHash });
 * console.log(fingerprint, parts['cpuModel']); // '3f9a0c1d2e4b5a67' 'AMD EPYC 9654 96-Core Processor'
 */
export function machineFingerprint(extra?: Readonly<Record<string, string>>): MachineFingerprint {
  const fn = 'machineFingerprint';
  const cpuList = cpus();
  const parts: Record<string, string> = {
    cpuModel: (cpuList[0]?.model ?? 'unknown').replace(/\s+/g, ' ').trim(),
    // os.cpus() lists every logical CPU; availableParallelism is the fallback where /proc is hidden.
    logicalCpus: String(cpuList.length || availableParallelism()),
    memoryGiB: String(Math.round(totalmem() / 2 ** 30)),
    platform: `${process.platform}-${process.arch}`,
    node: process.versions.node.split('.')[0] ?? 'unknown',
    nativeAbi: nativeAbi(),
  };
  if (extra !== undefined) {
    if (extra === null || typeof extra !== 'object' || Array.isArray(extra)) {
      throw new InvalidArgumentError(`${fn}: extra must be an object of strings, got ${describe(extra)}`);
    }
    for (const [key, value] of Object.entries(extra)) {
      if (key.length === 0) throw new InvalidArgumentError(`${fn}: extra has an empty key`);
      if (typeof value !== 'string') {
        throw new InvalidArgumentError(`${fn}: extra[${JSON.stringify(key)}] must be a string, got ${describe(value)}`);
      }
      parts[`extra.${key}`] = value;
    }
  }
  // Sorted pairs: the hash must not depend on the order the caller built `extra` in.
  const canonical = JSON.stringify(Object.entries(parts).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
  const fingerprint = createHash('sha256').update(canonical).digest('hex').slice(0, 16);
  return { fingerprint, parts };
}

function nativeAbi(): string {
  try {
    return String(nativeAddon().abiVersion);
  } catch {
    // Not built (or built for another ABI): kernels then run elsewhere, and timings differ.
    return 'unavailable';
  }
}
