// Polling for the next message instead of sleeping until it comes, for a short window.
//
// Why: a thread that slept runs what follows slowly. On the 2-vCPU VMs here a served tiny request
// is a chain of sleeps (the client sleeps while the server runs the job, the server sleeps while
// the client reads the reply), and after any real sleep, even 50 us, the next ~100 us of work run
// 3-5x slower (a tiny run in-process: 44 us back to back, 135-220 us right after a sleep of 50 us to
// 1 ms; the thread's caches and the vCPU are cold). Pure waiting is cheap to replace: the event
// loop keeps turning (setImmediate: libuv then polls its sockets without blocking), so the message
// is read by a thread that never went to sleep.
//
// The cost is bounded: at most one window of one core per message. Polling stops after a run of
// messages that each came later than the window (a peer that sends now and then, or replies that
// take milliseconds: polling would only burn a core the kernels need), and starts again as soon as
// one comes within it. Nothing depends on polling but latency: a message that comes after the
// window is read when the loop wakes, as without polling. (An adaptive window, grown and shrunk
// as KVM's halt polling does, measured worse here: windows that end just before the message pay
// for the polling and for the wake-up.)

import { checkInt } from '../validate.js';

/** The longest window by default, microseconds (server and client): a tiny request's round trip is 0.15-0.5 ms here. */
export const DEFAULT_POLL_MICROSECONDS = 1000;
/** The longest window a caller may ask for, microseconds. */
export const MAX_POLL_MICROSECONDS = 100_000;
/** A caller's window option checked (an integer in [0, MAX_POLL_MICROSECONDS]), or the default where absent. */
export function pollWindow(fn: string, value: unknown): number {
  return value === undefined ? DEFAULT_POLL_MICROSECONDS : checkInt(fn, 'pollMicroseconds', value, 0, MAX_POLL_MICROSECONDS);
}

/** Messages in a row that came after the window before polling stops. */
const MISSES_BEFORE_OFF = 8;

export class HotPoll {
  /** The window, ms (0: never poll). */
  readonly #window: number;
  /** Messages in a row that came after the window. */
  #misses = 0;
  /** When the poller was last armed (ms on `now`), or -1 when nothing is expected. */
  #armedAt = -1;
  #until = 0;
  #spinning = false;
  /** Immediates queued: at most one, however often the poller is armed and stopped. */
  #queued = false;
  readonly #turn = (): void => this.#spin();

  /**
   * @param windowMicroseconds how long to poll after `arm` (0 turns polling off).
   * @param now the clock (ms), for tests.
   * @param next how the loop is turned once more, for tests.
   */
  constructor(
    windowMicroseconds: number,
    private readonly now: () => number = () => performance.now(),
    private readonly next: (f: () => void) => void = (f) => void setImmediate(f),
  ) {
    this.#window = windowMicroseconds / 1000;
  }

  /** Whether `arm` polls (a window is set, and messages have been coming within it). */
  get active(): boolean {
    return this.#window > 0 && this.#misses < MISSES_BEFORE_OFF;
  }

  /** Whether the loop is being kept turning now. */
  get polling(): boolean {
    return this.#spinning;
  }

  /** A message is expected soon: keep the loop turning until it comes, for at most the window. */
  arm(): void {
    if (this.#window <= 0) return;
    const t = this.now();
    this.#armedAt = t;
    if (!this.active) return;
    this.#until = t + this.#window;
    this.#spinning = true;
    if (!this.#queued) {
      this.#queued = true;
      this.next(this.#turn);
    }
  }

  /** A message came: stop polling, and count whether it came within the window. */
  heard(): void {
    this.#spinning = false;
    if (this.#armedAt < 0) return;
    const waited = this.now() - this.#armedAt;
    this.#armedAt = -1;
    this.#misses = waited <= this.#window ? 0 : this.#misses + 1;
  }

  /** Stop polling: nothing more is expected (the peer left). */
  stop(): void {
    this.#spinning = false;
    this.#armedAt = -1;
  }

  #spin(): void {
    this.#queued = false;
    if (!this.#spinning) return;
    if (this.now() >= this.#until) {
      this.#spinning = false;
      return;
    }
    this.#queued = true;
    this.next(this.#turn);
  }
}
