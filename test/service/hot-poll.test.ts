// The poller that keeps a server's or client's event loop turning for a short window after it
// expects a message (src/service/hot-poll.ts): it polls only within the window, stops when the
// message comes, gives up after a run of late messages and comes back with the first timely one,
// and never queues more than one turn of the loop however often it is armed.

import { expect, it } from 'vitest';
import { HotPoll } from '../../src/service/hot-poll.js';

/** A poller on a clock and a loop the test turns by hand. */
function manual(windowMicroseconds: number) {
  let now = 0;
  const queued: (() => void)[] = [];
  const poll = new HotPoll(
    windowMicroseconds,
    () => now,
    (f) => void queued.push(f),
  );
  return {
    poll,
    queued,
    advance: (ms: number) => {
      now += ms;
    },
    /** Run the loop's queued turns once; how many there were. */
    turn: () => {
      const fs = queued.splice(0);
      for (const f of fs) f();
      return fs.length;
    },
  };
}

it('keeps the loop turning after arm until the window ends, then stops', () => {
  const m = manual(1000);
  m.poll.arm();
  expect(m.poll.polling).toBe(true);
  for (let t = 0; t < 9; t++) {
    m.advance(0.1);
    expect(m.turn()).toBe(1);
  }
  expect(m.poll.polling).toBe(true);
  m.advance(0.2); // past 1 ms
  m.turn();
  expect(m.poll.polling).toBe(false);
  expect(m.queued).toHaveLength(0);
});

it('stops polling as soon as the message comes', () => {
  const m = manual(1000);
  m.poll.arm();
  m.advance(0.05);
  m.poll.heard();
  expect(m.poll.polling).toBe(false);
  m.turn(); // the turn already queued sees it stopped and queues no other
  expect(m.queued).toHaveLength(0);
});

it('queues at most one turn of the loop however often it is armed and stopped', () => {
  const m = manual(1000);
  for (let i = 0; i < 50; i++) {
    m.poll.arm();
    m.poll.heard();
    m.poll.arm();
  }
  expect(m.queued).toHaveLength(1);
  expect(m.turn()).toBe(1);
  expect(m.queued).toHaveLength(1);
});

it('gives up after eight late messages in a row and polls again after a timely one', () => {
  const m = manual(1000);
  for (let i = 0; i < 8; i++) {
    expect(m.poll.active).toBe(true);
    m.poll.arm();
    m.advance(5); // 5 ms: after the window
    m.turn();
    m.poll.heard();
  }
  expect(m.poll.active).toBe(false);
  m.poll.arm();
  expect(m.poll.polling).toBe(false);
  expect(m.queued).toHaveLength(0);
  // Without polling it still times the wait: a message within the window brings polling back.
  m.advance(0.3);
  m.poll.heard();
  expect(m.poll.active).toBe(true);
  m.poll.arm();
  expect(m.poll.polling).toBe(true);
});

it('a late message that is not one of a run of eight does not stop polling', () => {
  const m = manual(1000);
  for (let i = 0; i < 20; i++) {
    m.poll.arm();
    m.advance(i % 4 === 0 ? 5 : 0.2);
    m.turn();
    m.poll.heard();
  }
  expect(m.poll.active).toBe(true);
});

it('never polls with a window of 0, and a message never expected changes nothing', () => {
  const m = manual(0);
  m.poll.arm();
  expect(m.poll.polling).toBe(false);
  expect(m.queued).toHaveLength(0);
  expect(m.poll.active).toBe(false);
  const n = manual(1000);
  n.poll.heard();
  n.poll.heard();
  expect(n.poll.active).toBe(true);
});

it('on the real event loop, stops by itself once the window has passed', async () => {
  const poll = new HotPoll(2000);
  poll.arm();
  expect(poll.polling).toBe(true);
  const t = performance.now();
  while (poll.polling && performance.now() - t < 1000) await new Promise((r) => setTimeout(r, 1));
  expect(poll.polling).toBe(false);
});
