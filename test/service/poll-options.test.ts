// The polling window of a server (`pollMicroseconds`, `dype serve --poll-us`) and of a client
// (`connect(..., { pollMicroseconds })`): bad values are refused with the option and the value
// named, and requests are answered alike with polling on and off.

import { afterAll, beforeAll, expect, it } from 'vitest';
import { kroneckerGraph } from '../../src/generators/index.js';
import { connect } from '../../src/service/client.js';
import type { DypeServer } from '../../src/service/server.js';
import { serveCommand } from '../../src/cli/commands/serve.js';
import { simulatedServer, TOKENS } from './support.js';

let polling: DypeServer;
let sleeping: DypeServer;
beforeAll(async () => {
  polling = await simulatedServer();
  sleeping = await simulatedServer({ pollMicroseconds: 0 });
});
afterAll(async () => {
  await polling.close();
  await sleeping.close();
});

it('connect refuses a window that is not an integer number of microseconds in [0, 100000]', async () => {
  const address = polling.addresses[0]!;
  await expect(connect(address, { token: TOKENS.a, pollMicroseconds: -1 })).rejects.toThrow(/connect: pollMicroseconds must be in \[0, 100000\], got -1/);
  await expect(connect(address, { token: TOKENS.a, pollMicroseconds: 2.5 })).rejects.toThrow(/connect: pollMicroseconds must be an integer, got 2.5/);
  await expect(connect(address, { token: TOKENS.a, pollMicroseconds: '500' as unknown as number })).rejects.toThrow(
    /connect: pollMicroseconds must be an integer, got "500"/,
  );
});

it('startServer and dype serve refuse a bad window, naming it', async () => {
  await expect(simulatedServer({ pollMicroseconds: 1e9 })).rejects.toThrow(/startServer: pollMicroseconds must be in \[0, 100000\], got 1000000000/);
  await expect(serveCommand(['--poll-us', 'soon'], () => undefined)).rejects.toThrow(/serve: --poll-us must be an integer in \[0, 100000\], got "soon"/);
});

it('answers the same with polling on both sides, on one side, and off', async () => {
  const graph = kroneckerGraph({ scale: 6, edgeFactor: 4, seed: 3 });
  const outputs: Float32Array[] = [];
  for (const [server, pollMicroseconds] of [
    [polling, 1000],
    [polling, 0],
    [sleeping, 1000],
    [sleeping, 0],
  ] as const) {
    const client = await connect(server.addresses[0]!, { token: TOKENS.a, pollMicroseconds });
    try {
      const plan = await client.schedule('spmm', graph, { probe: false });
      for (let i = 0; i < 3; i++) {
        const r = await client.runPlan(plan);
        outputs.push((r.outputs['Y'] as { data: Float32Array }).data);
      }
    } finally {
      await client.close();
    }
  }
  for (const y of outputs.slice(1)) expect(y).toEqual(outputs[0]);
  expect(outputs[0]!.some((v) => v !== 0)).toBe(true);
});
