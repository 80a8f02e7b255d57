// Mutations of a valid text file for the loader properties: truncation, hostile tokens (negative,
// out-of-range, huge, NaN, infinite, malformed numbers), repeated, dropped and junk lines,
// corrupted header words and flipped bytes (a gzip magic number included).

import fc from 'fast-check';

const HOSTILE_TOKENS = [
  '-1',
  '0',
  '-0',
  '2147483647',
  '2147483648',
  '4294967296',
  '9007199254740993',
  '99999999999999999999999',
  '1e309',
  '-1e309',
  '1e-400',
  'nan',
  'NaN',
  'inf',
  '-inf',
  'Infinity',
  '1.5',
  '0.0',
  'abc',
  '',
  '0x10',
  '+3',
  '1e5',
  '%',
  '#',
  '%%MatrixMarket',
  '\u0000',
  '\uff19',
  '1,5',
  '--2',
  '1e',
  '.',
  '3.4e38',
  '3.5e38',
];

export type Mutation =
  | { kind: 'truncate'; at: number }
  | { kind: 'token'; at: number; token: string }
  | { kind: 'duplicateLine'; at: number }
  | { kind: 'dropLine'; at: number }
  | { kind: 'junkLine'; at: number; text: string }
  | { kind: 'headerWord'; at: number; token: string }
  | { kind: 'byte'; at: number; byte: number }
  | { kind: 'gzipMagic' };

export const mutation: fc.Arbitrary<Mutation> = fc.oneof(
  fc.record({ kind: fc.constant('truncate' as const), at: fc.nat() }),
  fc.record({ kind: fc.constant('token' as const), at: fc.nat(), token: fc.constantFrom(...HOSTILE_TOKENS) }),
  fc.record({ kind: fc.constant('token' as const), at: fc.nat(), token: fc.integer({ min: -5, max: 40 }).map(String) }),
  fc.record({ kind: fc.constant('duplicateLine' as const), at: fc.nat() }),
  fc.record({ kind: fc.constant('dropLine' as const), at: fc.nat() }),
  fc.record({ kind: fc.constant('junkLine' as const), at: fc.nat(), text: fc.string({ maxLength: 12 }) }),
  fc.record({
    kind: fc.constant('headerWord' as const),
    at: fc.nat(),
    token: fc.constantFrom(...HOSTILE_TOKENS, 'complex', 'hermitian', 'array', 'pattern', 'skew-symmetric', 'integer', 'vector'),
  }),
  fc.record({ kind: fc.constant('byte' as const), at: fc.nat(), byte: fc.integer({ min: 0, max: 255 }) }),
  fc.constant({ kind: 'gzipMagic' as const }),
);

function lines(text: string): string[] {
  return text.split('\n');
}

/** Apply one mutation; the result may be bytes (byte-level mutations) or text. */
export function mutate(input: string | Uint8Array, m: Mutation): string | Uint8Array {
  if (m.kind === 'byte' || m.kind === 'gzipMagic') {
    const bytes = typeof input === 'string' ? new TextEncoder().encode(input) : input.slice();
    if (m.kind === 'gzipMagic') {
      const out = new Uint8Array(bytes.length + 2);
      out.set([0x1f, 0x8b]);
      out.set(bytes, 2);
      return out;
    }
    if (bytes.length) bytes[m.at % bytes.length] = m.byte;
    return bytes;
  }
  const text = typeof input === 'string' ? input : new TextDecoder().decode(input);
  const ls = lines(text);
  switch (m.kind) {
    case 'truncate':
      return text.slice(0, m.at % (text.length + 1));
    case 'token': {
      const parts = text.split(/([ \t\n]+)/);
      const words = parts.flatMap((p, i) => (i % 2 === 0 && p.length > 0 ? [i] : []));
      if (words.length === 0) return text;
      parts[words[m.at % words.length]!] = m.token;
      return parts.join('');
    }
    case 'duplicateLine': {
      const i = m.at % ls.length;
      ls.splice(i, 0, ls[i]!);
      return ls.join('\n');
    }
    case 'dropLine':
      ls.splice(m.at % ls.length, 1);
      return ls.join('\n');
    case 'junkLine':
      ls.splice(m.at % (ls.length + 1), 0, m.text);
      return ls.join('\n');
    case 'headerWord': {
      const words = ls[0]!.split(' ');
      words[m.at % words.length] = m.token;
      ls[0] = words.join(' ');
      return ls.join('\n');
    }
  }
}

/** Zero to three mutations. */
export const mutations = fc.array(mutation, { maxLength: 3 });

export function applyAll(text: string, ms: readonly Mutation[]): string | Uint8Array {
  let out: string | Uint8Array = text;
  for (const m of ms) out = mutate(out, m);
  return out;
}
