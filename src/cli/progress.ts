// Progress on stderr: a bar redrawn in place on a terminal, and plain lines (at most one per
// tenth of the work) when stderr is a pipe or a file, so logs stay readable.

export interface Progress {
  update(done: number, total: number, label: string): void;
  done(message?: string): void;
}

export function progressReporter(title: string, stream: NodeJS.WriteStream = process.stderr): Progress {
  const tty = stream.isTTY === true;
  let lastTenth = -1;
  let drawn = false;
  return {
    update(done, total, label) {
      const fraction = total > 0 ? Math.min(1, done / total) : 1;
      if (tty) {
        const width = 24;
        const filled = Math.round(fraction * width);
        const line = `${title} [${'#'.repeat(filled)}${'.'.repeat(width - filled)}] ${done}/${total} ${label}`;
        const columns = stream.columns ?? 100;
        stream.write(`\r${line.slice(0, columns - 1).padEnd(columns - 1)}`);
        drawn = true;
        return;
      }
      const tenth = Math.floor(fraction * 10);
      if (tenth !== lastTenth) {
        lastTenth = tenth;
        stream.write(`${title}: ${done}/${total} (${Math.round(fraction * 100)}%) ${label}\n`);
      }
    },
    done(message) {
      if (tty && drawn) stream.write('\r\x1b[K');
      if (message) stream.write(`${message}\n`);
    },
  };
}

/**
 * Progress over pieces of work whose count is a plan's and may change: a re-plan can leave fewer
 * pieces (splits merged) or more than planned. The count grows when passed, and the last line
 * says all of what ran ran (it stopped at 5/6 after a re-plan).
 */
export function pieceProgress(progress: Progress, planned: number): { piece(label: string): void; finish(): void } {
  let done = 0;
  let total = planned;
  return {
    piece(label) {
      done++;
      total = Math.max(total, done);
      progress.update(done, total, label);
    },
    finish() {
      if (done > 0 && done < total) progress.update(done, done, 'finished (a re-plan changed the pieces)');
      progress.done();
    },
  };
}
