// What a backend contributes to the backend table: a name, a description, its parameter rules,
// a probe for whether it can run here, and a constructor. The core only ever sees this shape.

import type { Device, DeviceKind, DeviceSpec } from './device.js';
import type { ParamRules } from './spec.js';

/** Whether a backend can run on this machine, and if not, why. */
export type Availability = { readonly available: true; readonly detail: string } | { readonly available: false; readonly reason: string };

export interface BackendDefinition {
  /** Key in the backend table and in system files, e.g. `cgra-sim`. */
  readonly name: string;
  /** One line for `dype system` and the README. */
  readonly description: string;
  readonly kind: DeviceKind;
  readonly simulated: boolean;
  /** True when its operands live in host memory (no transfer needed from the CPU). */
  readonly hostMemory: boolean;
  /** Profile used when a system file names none (a file in devices/<name>/). */
  readonly defaultProfile: string;
  /** Every parameter its spec must give, with allowed ranges. */
  readonly params: ParamRules;
  /** Whether it can run here (a simulator always can; a real device needs its hardware). */
  probe(): Promise<Availability>;
  /** Build a device named `name` from a validated spec. */
  create(name: string, spec: DeviceSpec): Device;
}
