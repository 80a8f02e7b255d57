// What the shared dispatcher reports (`status`): each tenant's queue, service and quota use, and
// each device's busy time and shares. Plain data, sent to clients as is.

export interface TenantStatus {
  readonly name: string;
  readonly weight: number;
  readonly priority: number;
  readonly maxQueued: number;
  readonly queued: number;
  readonly running: number;
  readonly completed: number;
  readonly failed: number;
  readonly refused: number;
  /** Seconds of service (job wall time) received. */
  readonly servedSeconds: number;
  /** Device -> { busy seconds, used share of its quota window when it has a quota }. */
  readonly devices: Readonly<
    Record<string, { readonly busySeconds: number; readonly quota?: { readonly share: number; readonly window: number; readonly used: number } }>
  >;
}

export interface SchedulerStatus {
  readonly slots: number;
  readonly draining: boolean;
  readonly queued: number;
  readonly running: number;
  readonly tenants: readonly TenantStatus[];
  /** Per device: its busy seconds and each tenant's share of them. */
  readonly devices: readonly { readonly name: string; readonly busySeconds: number; readonly shares: Readonly<Record<string, number>> }[];
  /** The asking tenant's own jobs. */
  readonly jobs: readonly { readonly id: string; readonly kind: string; readonly state: 'queued' | 'running'; readonly seconds: number }[];
}
