// A deterministic stand-in for a real device caught in a slow spell on a shared machine: a
// simulated device presented as measured (on host memory), whose whole-operator runs come out
// `factor` times slow until it has run a whole operator `slow` times. Given `onlyWholeOf` (the
// operator's row count), only runs of the whole operator are slowed, with or without a range, so
// a split's parts keep their true price while the device alone does not.

import type { Device, DeviceResult } from '../../src/devices/device.js';

export function slowAtFirst(inner: Device, factor: number, slow: number, onlyWholeOf?: number): Device {
  let wholeRuns = 0;
  return {
    name: inner.name,
    backend: inner.backend,
    kind: inner.kind,
    simulated: false,
    memorySpace: 'host',
    capabilities: inner.capabilities,
    power: inner.power,
    spec: inner.spec,
    traits: inner.traits,
    run: (async (
      op: Parameters<Device['run']>[0],
      inputs: Parameters<Device['run']>[1],
      range?: Parameters<Device['run']>[2],
      options?: Parameters<Device['run']>[3],
    ) => {
      const r = (await inner.run(op, inputs, range, options)) as DeviceResult;
      const whole = !range || (range[0] === 0 && range[1] === onlyWholeOf);
      const f = wholeRuns < slow && (onlyWholeOf === undefined || whole) ? factor : 1;
      if (onlyWholeOf === undefined ? !range : whole) wholeRuns++;
      return { ...r, source: 'measured', seconds: r.seconds * f, joules: r.joules * f };
    }) as Device['run'],
    dispose: () => inner.dispose?.() ?? Promise.resolve(),
  };
}
