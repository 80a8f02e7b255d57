// The line assembler hands parsers whole lines whatever the chunk size, and the parsers give the
// same result (and the same error lines) when every line straddles a chunk boundary.

import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { afterAll, describe, expect, it } from 'vitest';
import { readBufferLines, readFileLines, type LineSink } from '../../src/io/byte-lines.js';
import { parseEdgeList, parseMatrixMarket, parseMetis } from '../../src/io/index.js';
import { matrixMarketSink } from '../../src/io/matrix-market.js';
import { metisSink } from '../../src/io/metis.js';
import { edgeListSink } from '../../src/io/snap.js';
import { expectFormatErrorAsync, expectSameCsr, tempDir } from './helpers.js';

/** A sink that records the blocks it is given, checking the whole-line contract on the way. */
function recorder(): LineSink & { blocks: string[] } {
  const blocks: string[] = [];
  return {
    blocks,
    begin() {},
    lines(buf, start, end) {
      expect(end).toBeGreaterThan(start);
      expect(buf[end - 1]).toBe(10);
      blocks.push(Buffer.from(buf.subarray(start, end)).toString('latin1'));
    },
  };
}

const CHUNKS = [1, 3, 7, 64];

describe('whole-line blocks', () => {
  const { dir, cleanup } = tempDir();
  afterAll(cleanup);

  it('cuts every chunk size into whole lines and supplies the last newline', async () => {
    const text = 'first line\n\nthird, a much longer line than the chunk size\nx\n\nlast without newline';
    const path = join(dir, 'lines.txt');
    writeFileSync(path, text);
    for (const chunk of [...CHUNKS, 1 << 20]) {
      const sink = recorder();
      await readFileLines('test', path, sink, chunk);
      expect(sink.blocks.join('')).toBe(`${text}\n`);
    }
    const z = join(dir, 'lines.txt.gz');
    writeFileSync(z, gzipSync(text));
    const sink = recorder();
    await readFileLines('test', z, sink, 7);
    expect(sink.blocks.join('')).toBe(`${text}\n`);
  });

  it('passes a buffer through as one block and an empty input as none', () => {
    const sink = recorder();
    readBufferLines('test', '<buffer>', 'a\nb\n', sink);
    expect(sink.blocks).toEqual(['a\nb\n']);
    const empty = recorder();
    readBufferLines('test', '<buffer>', new Uint8Array(0), empty);
    expect(empty.blocks).toEqual([]);
  });

  it('parses Matrix Market the same at every chunk size, CRLF and odd blanks included', async () => {
    let body = '%%MatrixMarket matrix coordinate real general\r\n% comment\r\n50 40 100\r\n';
    for (let e = 0; e < 100; e++) body += `${((e * 7) % 50) + 1}${e % 3 ? ' ' : ' \t '}${((e * 13) % 40) + 1} ${(e - 50) / 8}e-1${e % 5 ? '' : ' '}\r\n`;
    const expected = parseMatrixMarket(body, { format: 'coordinate' });
    const path = join(dir, 'crlf.mtx');
    writeFileSync(path, body);
    for (const chunk of CHUNKS) {
      const sink = matrixMarketSink('loadMatrixMarket', path);
      await readFileLines('loadMatrixMarket', path, sink, chunk);
      expectSameCsr(sink.finish() as typeof expected, expected);
    }
  });

  it('parses edge lists and METIS graphs the same at every chunk size', async () => {
    const edges = '# c\n1 2 0.5\n2\t3\t-1.25\n\n7 1 3\n';
    const graph = '% c\n4 2 1\n2 5 3 7\n1 5\n% mid\n1 7\n\n';
    const snapPath = join(dir, 'e.txt');
    const metisPath = join(dir, 'g.graph');
    writeFileSync(snapPath, edges);
    writeFileSync(metisPath, graph);
    const e = parseEdgeList(edges, { weights: true });
    const g = parseMetis(graph);
    for (const chunk of CHUNKS) {
      const s = edgeListSink('loadEdgeList', snapPath, { weights: true });
      await readFileLines('loadEdgeList', snapPath, s, chunk);
      expectSameCsr(s.finish().matrix, e.matrix);
      const m = metisSink('loadMetis', metisPath);
      await readFileLines('loadMetis', metisPath, m, chunk);
      expectSameCsr(m.finish(), g);
    }
  });

  it('reports the same error line when the bad line straddles two chunks', async () => {
    const lines = ['%%MatrixMarket matrix coordinate pattern general', '9 9 30'];
    for (let e = 0; e < 29; e++) lines.push(`${(e % 9) + 1} ${((e * 5) % 9) + 1}`);
    lines.push('3 3x');
    const path = join(dir, 'bad.mtx');
    writeFileSync(path, `${lines.join('\n')}\n`);
    for (const chunk of CHUNKS) {
      const sink = matrixMarketSink('loadMatrixMarket', path);
      await expectFormatErrorAsync(() => readFileLines('loadMatrixMarket', path, sink, chunk), 32, path);
    }
  });
});
