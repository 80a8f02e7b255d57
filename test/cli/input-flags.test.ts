// The inputs people have, from the command line: edge lists with named vertices (TSV, CSV with a
// header), weights with --weighted, --undirected, a BFS source by name and PageRank's iterations,
// scipy .npz files, Matrix Market 64-bit integers with and without --pattern, and clear refusals
// (an unknown preset lists the presets; a flag that does not apply to the workload says so).

import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../support/cli.js';
import { tempFolder } from '../support/temp.js';
import { csrNpz } from '../io/npz-fixtures.js';

const dir = tempFolder('dype-input-flags-');
const genes = join(dir, 'genes.tsv');
writeFileSync(genes, 'gene_a\tgene_b\nTP53\tMDM2\nMDM2\tCDKN1A\nBRCA1\tTP53\nCDKN1A\tCCNE1\n');
const weighted = join(dir, 'roads.csv');
writeFileSync(weighted, 'source,target,weight\n0,1,2.5\n1,2,1\n2,0,4\n');

interface InspectJson {
  input: string;
  matrix: { rows: number; nnz: number };
}

describe('inputs from the command line', () => {
  it('reads a TSV of named vertices; --undirected makes each edge go both ways; a one-way list gets a note', async () => {
    const directed = await runCli(['inspect', genes, '--json']);
    expect(directed.code).toBe(0);
    expect((JSON.parse(directed.out) as InspectJson).matrix).toMatchObject({ rows: 5, nnz: 4 });
    expect(directed.err).toMatch(
      /^dype: warning: genes\.tsv: no edge is listed in both directions, so it is read as a directed graph; if each undirected edge is listed once, pass --undirected\n$/,
    );
    const undirected = await runCli(['inspect', genes, '--undirected', '--json']);
    expect((JSON.parse(undirected.out) as InspectJson).matrix.nnz).toBe(8);
    expect(undirected.err).toBe('');
  });

  it('starts a BFS at a named vertex with --source, and names the closest vertex for a typo', async () => {
    const r = await runCli(['run', 'bfs', '--data', genes, '--undirected', '--source', 'BRCA1', '--json', '--no-replan']);
    expect(r.code).toBe(0);
    const o = JSON.parse(r.out) as { input: { symmetric: boolean }; pieces: unknown[] };
    expect(o.input.symmetric).toBe(true);
    expect(o.pieces.length).toBeGreaterThan(0);
    const typo = await runCli(['explore', 'bfs', '--data', genes, '--undirected', '--source', 'BRAC1', '--no-plot']);
    expect(typo.code).toBe(2);
    expect(typo.err).toBe('dype: explore: --source "BRAC1" is not a vertex of genes.tsv (did you mean "BRCA1"?)\n');
    const notBfs = await runCli(['explore', 'gcn', '--data', genes, '--source', 'TP53', '--no-plot']);
    expect(notBfs.code).toBe(2);
    expect(notBfs.err).toMatch(/--source sets where a BFS starts, and gcn has no bfs operator/);
  });

  it('reads a weighted CSV with --weighted, and says which flag a third column needs', async () => {
    const without = await runCli(['inspect', weighted]);
    expect(without.code).toBe(1);
    expect(without.err).toMatch(/^dype: loadEdgeList: .*roads\.csv:2: unexpected third field "2\.5" \(pass --weighted to read it as the edge weight\)\n$/);
    const r = await runCli(['explore', 'pagerank', '--data', weighted, '--weighted', '--json']);
    expect(r.code).toBe(0);
    expect((JSON.parse(r.out) as { input: { nnz: number } }).input.nnz).toBe(3);
    const generated = await runCli(['explore', '--weighted', '--no-plot']);
    expect(generated.code).toBe(2);
    expect(generated.err).toMatch(/--weighted reads an edge list's third column; give it with --data FILE/);
  });

  it('sets PageRank iterations with --iterations and refuses it for other workloads', async () => {
    const r = await runCli(['explore', 'pagerank', '--generate', 'grid:rows=10,cols=10', '--iterations', '2', '--json']);
    expect(r.code).toBe(0);
    const mapping = (JSON.parse(r.out) as { chosen: { mapping: string } }).chosen.mapping;
    expect(mapping).toMatch(/\bx2:/);
    expect(mapping).not.toMatch(/\bp3:/);
    const gcn = await runCli(['explore', 'gcn', '--iterations', '2', '--no-plot']);
    expect(gcn.code).toBe(2);
    expect(gcn.err).toMatch(/--iterations sets PageRank's power iterations, and the workload is gcn/);
  });

  it('names a stream workload as typed', async () => {
    const r = await runCli(['explore', 'stream:gcn', '--generate', 'grid:rows=10,cols=10', '--json']);
    expect(r.code).toBe(0);
    expect((JSON.parse(r.out) as { workload: string }).workload).toBe('stream:gcn');
  });

  it('lists the presets when --generate names none', async () => {
    const r = await runCli(['explore', '--generate', 'kron13', '--no-plot']);
    expect(r.code).toBe(2);
    expect(r.err).toMatch(
      /^dype: explore: --generate "kron13" is neither a preset nor a generator spec \(did you mean kron1\d\?\); presets: kron12, kron14, kron16, kron18, kron20, tendril, road, fem, random;/,
    );
  });

  it('reads scipy .npz files and Matrix Market 64-bit integers (exactly with --pattern)', async () => {
    const npz = join(dir, 'a.npz');
    writeFileSync(npz, csrNpz([3, 3], [0, 1, 2, 3], [1, 2, 0], [1, 2, 3]));
    const r = await runCli(['inspect', npz, '--json']);
    expect(r.code).toBe(0);
    expect((JSON.parse(r.out) as InspectJson).matrix).toMatchObject({ rows: 3, nnz: 3 });
    const mtx = join(dir, 'big.mtx');
    writeFileSync(mtx, '%%MatrixMarket matrix coordinate integer general\n2 2 2\n1 2 9007199254740993\n2 1 5\n');
    const rounded = await runCli(['inspect', mtx, '--json']);
    expect(rounded.code).toBe(0);
    expect(rounded.err).toMatch(/^dype: warning: loadMatrixMarket: .*big\.mtx: 1 integer value beyond 2\^53 rounded to the nearest double/);
    const exact = await runCli(['inspect', mtx, '--pattern', '--json']);
    expect(exact.code).toBe(0);
    expect(exact.err).toBe('');
  });
});
