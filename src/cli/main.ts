#!/usr/bin/env node
// The `dype` command line: dispatches to one module per command and turns errors into one line
// on stderr with a meaningful exit code (0 success, 1 failure, 2 usage error).

import { readFileSync, realpathSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { packageRoot } from '../native/addon.js';
import { suggest } from '../validate.js';
import { inspectCommand, INSPECT_HELP } from './commands/inspect.js';
import { kernelsCommand, KERNELS_HELP } from './commands/kernels.js';
import { systemCommand, SYSTEM_HELP } from './commands/system.js';
import { calibrateCommand, CALIBRATE_HELP } from './commands/calibrate.js';
import { exploreCommand, EXPLORE_HELP } from './commands/explore.js';
import { runCommand, RUN_HELP } from './commands/run.js';
import { serveCommand, SERVE_HELP } from './commands/serve.js';
import { statusCommand, STATUS_HELP } from './commands/status.js';
import { describeFailure, EXIT_OK, EXIT_USAGE, UsageError } from './usage-error.js';

const COMMANDS: Record<string, { summary: string; run: (argv: readonly string[], write: (s: string) => void) => Promise<void>; help: string }> = {
  explore: { summary: 'plan a workload on an input: the Pareto front of time and energy, as a table and a chart', run: exploreCommand, help: EXPLORE_HELP },
  run: { summary: 'plan and execute a workload: predicted against observed per operator, a trace and a timeline chart', run: runCommand, help: RUN_HELP },
  inspect: { summary: 'print the structural features the cost model reads from a matrix or graph', run: inspectCommand, help: INSPECT_HELP },
  kernels: { summary: 'run the native CPU kernels (SpMM, SpMV, BFS) on a graph and print times', run: kernelsCommand, help: KERNELS_HELP },
  system: { summary: 'list the devices (real and simulated) and links dype schedules on', run: systemCommand, help: SYSTEM_HELP },
  calibrate: { summary: 'measure every device and fit the cost model (stored in the cache folder)', run: calibrateCommand, help: CALIBRATE_HELP },
  serve: { summary: 'run dype as a service shared by several applications (tenants, fair sharing, quotas)', run: serveCommand, help: SERVE_HELP },
  status: { summary: "show a dype server's tenants, queues, device use and shares", run: statusCommand, help: STATUS_HELP },
};

const HELP = `dype: data-aware scheduling of sparse and graph kernels on heterogeneous machines

Usage: dype <command> [options]

Commands:
${Object.entries(COMMANDS)
  .map(([name, c]) => `  ${name.padEnd(12)} ${c.summary}`)
  .join('\n')}

Global options:
  -h, --help       help for dype or a command (dype <command> --help)
  --version        print the version
  --verbose        print stack traces with errors

Examples:
  dype explore                      the Pareto front of a GCN on a generated graph: table and dype-front.png
  dype explore sage --data graph.mtx --objective energy --out front.html
  dype run                          execute the plan: predicted against observed, trace, timeline chart
  dype inspect graph.mtx --out degrees.png
  dype calibrate --quick
  dype system
  dype kernels --data graph.mtx --k 64

Every command takes --json (one JSON object on stdout; schemas in docs/cli-json.md).
Exit codes: 0 success, 1 failure, 2 usage error.`;

function version(): string {
  return (JSON.parse(readFileSync(join(packageRoot, 'package.json'), 'utf8')) as { version: string }).version;
}

function unknownCommand(command: string): UsageError {
  const hint = suggest(command, Object.keys(COMMANDS));
  return new UsageError(`unknown command ${JSON.stringify(command)}${hint ? ` (did you mean ${hint}?)` : ''}; see dype --help`);
}

export async function main(argv: readonly string[], out: (s: string) => void = (s) => void process.stdout.write(`${s}\n`)): Promise<number> {
  const verbose = argv.includes('--verbose');
  const args = argv.filter((a) => a !== '--verbose');
  try {
    const [command, ...rest] = args;
    if (command === undefined || command === '-h' || command === '--help' || command === 'help') {
      const topic = command === 'help' ? rest[0] : undefined;
      // `dype help explor` printed the general help and exited 0, as if the topic existed.
      if (topic !== undefined && !COMMANDS[topic]) throw unknownCommand(topic);
      out(topic ? COMMANDS[topic]!.help : HELP);
      return EXIT_OK;
    }
    if (command === '--version' || command === '-v') {
      out(version());
      return EXIT_OK;
    }
    const entry = COMMANDS[command];
    if (!entry) throw unknownCommand(command);
    await entry.run(rest, out);
    return EXIT_OK;
  } catch (e) {
    const { code, message } = describeFailure(e, verbose);
    process.stderr.write(`${message}\n`);
    return code === EXIT_USAGE ? EXIT_USAGE : code;
  }
}

// Run when executed directly (also through npm's bin symlink), not when imported by tests.
function invokedDirectly(): boolean {
  try {
    return process.argv[1] !== undefined && realpathSync(process.argv[1]) === fileURLToPath(import.meta.url);
  } catch {
    return false;
  }
}
if (invokedDirectly()) {
  // `dype system | head` closes the pipe early: that is the reader's choice, not a failure.
  process.stdout.on('error', (e: NodeJS.ErrnoException) => {
    if (e.code === 'EPIPE') process.exit(0);
    throw e;
  });
  main(process.argv.slice(2)).then((code) => {
    process.exitCode = code;
  });
}
