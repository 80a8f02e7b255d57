// A run's allowance of device time: how the shared service's per-device quotas reach a running
// plan, piece by piece. Before a piece starts, the run asks whether its device is refused now (its
// tenant has used its share of the device over the quota's window); a refused device takes no new
// piece: the operator and those not started are re-planned onto the other devices, or, when no
// mapping of the rest avoids it, the run waits until the window frees it. Each piece's device
// seconds are charged the moment it ends, and a run computes its pieces one at a time on every
// device its allowance watches, so a quota is passed by at most the one piece running when it was
// reached.

import { describe, InvalidArgumentError } from '../errors.js';
import type { BfsStepRecord } from './bfs-steps.js';

export interface DeviceAllowance {
  /** The devices whose use is counted: a run computes its pieces on them one at a time. */
  readonly watched: ReadonlySet<string>;
  /** Whether a new piece may not start on `device` now. */
  refuses(device: string): boolean;
  /** Seconds until some refused device may be used again (the run waits this long when nothing else can take its work). */
  retryIn(): number;
  /** A piece (or a step of a stepped search) ran `seconds` on `device`. */
  charge(device: string, seconds: number): void;
  /**
   * Resolves when the run may look again (after `retryIn`), rejecting with the signal's reason on
   * an abort. A shared host gives the run's slot to other jobs meanwhile. @default a timer
   */
  wait?(signal: AbortSignal | undefined): Promise<void>;
}

/** A piece was not started: its device is over its allowance. The run moves the work, or waits. */
export class DeviceRefusedError extends Error {
  constructor(
    readonly deviceIndex: number,
    readonly device: string,
  ) {
    super(`device ${device} is over its allowance`);
  }
}

/** @throws {InvalidArgumentError} unless `a` has the shape of a {@link DeviceAllowance}. */
export function checkAllowance(fn: string, a: unknown): DeviceAllowance | undefined {
  if (a === undefined) return undefined;
  const x = a as Partial<DeviceAllowance> | null;
  if (
    x === null ||
    typeof x !== 'object' ||
    !(x.watched instanceof Set) ||
    typeof x.refuses !== 'function' ||
    typeof x.retryIn !== 'function' ||
    typeof x.charge !== 'function' ||
    (x.wait !== undefined && typeof x.wait !== 'function')
  )
    throw new InvalidArgumentError(`${fn}: allowance must be a DeviceAllowance (watched, refuses, retryIn, charge), got ${describe(a)}`);
  return x as DeviceAllowance;
}

/** The longest single wait: the allowance is asked again after it (a reloaded policy may have raised the quota). */
const MAX_WAIT_MS = 1000;

/** Resolves when the allowance says a refused device may be used again (or after MAX_WAIT_MS); rejects with the signal's reason. */
export function waitForAllowance(allowance: DeviceAllowance, signal: AbortSignal | undefined): Promise<void> {
  signal?.throwIfAborted();
  if (allowance.wait) return allowance.wait(signal);
  return sleepFor(allowance, signal);
}

/** The wait of {@link waitForAllowance} by a timer alone (`retryIn`, at most MAX_WAIT_MS). */
export function sleepFor(allowance: DeviceAllowance, signal: AbortSignal | undefined): Promise<void> {
  const s = allowance.retryIn();
  const ms = Number.isFinite(s) ? Math.min(MAX_WAIT_MS, Math.max(1, Math.ceil(s * 1000))) : MAX_WAIT_MS;
  return new Promise((resolve, reject) => {
    const onAbort = (): void => {
      clearTimeout(timer);
      reject(signal!.reason);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

/**
 * The device seconds a piece used, by device: all on its device, or, for a search stepped across
 * devices, each step's seconds on the device that ran it (the modelled moves between memory
 * spaces are link time, not any device's).
 */
export function pieceUse(device: string, seconds: number, steps: readonly BfsStepRecord[] | undefined): [string, number][] {
  if (!steps || steps.length === 0) return [[device, seconds]];
  const by = new Map<string, number>();
  for (const st of steps) by.set(st.device, (by.get(st.device) ?? 0) + st.observedSeconds);
  return [...by];
}
