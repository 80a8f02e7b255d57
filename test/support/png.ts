// A small PNG decoder for tests (8-bit greyscale, RGB and RGBA, non-interlaced: what resvg
// writes), so a chart can be checked for its size and for having something drawn in it.

import { inflateSync } from 'node:zlib';

export interface DecodedPng {
  readonly width: number;
  readonly height: number;
  /** RGBA, row-major. */
  readonly rgba: Uint8Array;
}

const SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

export function decodePng(file: Buffer): DecodedPng {
  if (!file.subarray(0, 8).equals(SIGNATURE)) throw new Error('decodePng: not a PNG (bad signature)');
  let at = 8;
  let width = 0;
  let height = 0;
  let channels = 0;
  const idat: Buffer[] = [];
  while (at < file.length) {
    const length = file.readUInt32BE(at);
    const type = file.toString('latin1', at + 4, at + 8);
    const body = file.subarray(at + 8, at + 8 + length);
    if (type === 'IHDR') {
      width = body.readUInt32BE(0);
      height = body.readUInt32BE(4);
      const depth = body[8];
      const colour = body[9];
      const interlace = body[12];
      channels = ({ 0: 1, 2: 3, 4: 2, 6: 4 } as Record<number, number>)[colour!] ?? 0;
      if (depth !== 8 || channels === 0 || interlace !== 0)
        throw new Error(`decodePng: unsupported depth ${depth}, colour type ${colour} or interlace ${interlace}`);
    } else if (type === 'IDAT') idat.push(body);
    else if (type === 'IEND') break;
    at += 12 + length;
  }
  const raw = inflateSync(Buffer.concat(idat));
  const stride = width * channels;
  const out = new Uint8Array(width * height * channels);
  for (let y = 0; y < height; y++) {
    const filter = raw[y * (stride + 1)]!;
    const line = raw.subarray(y * (stride + 1) + 1, (y + 1) * (stride + 1));
    for (let x = 0; x < stride; x++) {
      const a = x >= channels ? out[y * stride + x - channels]! : 0;
      const b = y > 0 ? out[(y - 1) * stride + x]! : 0;
      const c = x >= channels && y > 0 ? out[(y - 1) * stride + x - channels]! : 0;
      let v = line[x]!;
      if (filter === 1) v += a;
      else if (filter === 2) v += b;
      else if (filter === 3) v += (a + b) >> 1;
      else if (filter === 4) {
        const p = a + b - c;
        const pa = Math.abs(p - a);
        const pb = Math.abs(p - b);
        const pc = Math.abs(p - c);
        v += pa <= pb && pa <= pc ? a : pb <= pc ? b : c;
      } else if (filter !== 0) throw new Error(`decodePng: bad filter ${filter} on row ${y}`);
      out[y * stride + x] = v & 0xff;
    }
  }
  const rgba = new Uint8Array(width * height * 4);
  for (let i = 0; i < width * height; i++) {
    const px = out.subarray(i * channels, (i + 1) * channels);
    const [r, g, b, alpha] = channels >= 3 ? [px[0]!, px[1]!, px[2]!, channels === 4 ? px[3]! : 255] : [px[0]!, px[0]!, px[0]!, channels === 2 ? px[1]! : 255];
    rgba.set([r, g, b, alpha], i * 4);
  }
  return { width, height, rgba };
}

/** Share of pixels that are not (near) white, and how many distinct colours the image has. */
export function inkStats(png: DecodedPng): { ink: number; colours: number } {
  let ink = 0;
  const colours = new Set<number>();
  for (let i = 0; i < png.width * png.height; i++) {
    const r = png.rgba[i * 4]!;
    const g = png.rgba[i * 4 + 1]!;
    const b = png.rgba[i * 4 + 2]!;
    if (r < 235 || g < 235 || b < 235) ink++;
    colours.add((r << 16) | (g << 8) | b);
  }
  return { ink: ink / (png.width * png.height), colours: colours.size };
}
