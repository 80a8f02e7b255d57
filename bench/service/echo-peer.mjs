// The transport floor of the served-overhead bench: a bare Node process on a Unix socket that
// answers every chunk it receives with a fixed-size reply, no dype inside. A served request can
// cost no less than this round trip between two processes on the same machine.
// Run by bench/service/overhead.ts: node bench/service/echo-peer.mjs SOCKET REPLY_BYTES

import { unlinkSync } from 'node:fs';
import { createServer } from 'node:net';

const [path, bytes] = process.argv.slice(2);
const reply = Buffer.alloc(Number(bytes), 7);
try {
  unlinkSync(path);
} catch {
  // not there yet
}
const server = createServer((socket) => {
  socket.on('data', () => socket.write(reply));
  socket.on('error', () => undefined);
});
server.listen(path, () => process.stdout.write('listening\n'));
process.on('SIGTERM', () => server.close(() => process.exit(0)));
