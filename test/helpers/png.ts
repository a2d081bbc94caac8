// PNG outputs read by a decoder we did not write (pngjs: inflates every IDAT chunk and checks every CRC), so a test
// compares the image itself — its size and its pixels — and not just the signature bytes or the IHDR we could read
// by hand.
import { PNG } from 'pngjs';

export type Rgb = [number, number, number];

export interface PngExpectation {
  width: number;
  height: number;
  /** Pixels that must have this colour (within ±`tolerance` per channel, default 2): [x, y, rgb]. */
  colours?: [number, number, Rgb][];
  /** At least this share of the pixels must differ from the top-left pixel (a blank image fails; default 0). */
  minInk?: number;
  tolerance?: number;
}

/** The decoded image: size and the RGBA of a pixel. Throws when pngjs cannot decode it (bad CRC, truncated, …). */
export function decodePng(bytes: Buffer): {
  width: number;
  height: number;
  rgba(x: number, y: number): number[];
} {
  const png = PNG.sync.read(bytes);
  return {
    width: png.width,
    height: png.height,
    rgba: (x, y) => [...png.data.subarray((y * png.width + x) * 4, (y * png.width + x) * 4 + 4)],
  };
}

/** What is wrong with `bytes` as the PNG `expected` describes: [] when nothing is. */
export function pngProblems(bytes: Buffer, expected: PngExpectation): string[] {
  let img: ReturnType<typeof decodePng>;
  try {
    img = decodePng(bytes);
  } catch (err) {
    return [`not a decodable PNG: ${err instanceof Error ? err.message : String(err)}`];
  }
  const problems: string[] = [];
  if (img.width !== expected.width || img.height !== expected.height)
    problems.push(`size ${img.width}x${img.height}, expected ${expected.width}x${expected.height}`);
  const tol = expected.tolerance ?? 2;
  for (const [x, y, rgb] of expected.colours ?? []) {
    if (x >= img.width || y >= img.height) {
      problems.push(`pixel (${x}, ${y}) is outside the image`);
      continue;
    }
    const got = img.rgba(x, y).slice(0, 3);
    if (got.some((c, i) => Math.abs(c - rgb[i]!) > tol))
      problems.push(`pixel (${x}, ${y}) is rgb(${got.join(', ')}), expected rgb(${rgb.join(', ')})`);
  }
  if (expected.minInk) {
    const ground = img.rgba(0, 0);
    let ink = 0;
    for (let y = 0; y < img.height; y++)
      for (let x = 0; x < img.width; x++) if (img.rgba(x, y).some((c, i) => c !== ground[i])) ink++;
    const share = ink / (img.width * img.height);
    if (share < expected.minInk)
      problems.push(`only ${(share * 100).toFixed(3)}% of the pixels differ from the background`);
  }
  return problems;
}

/** A copy of a PNG with one byte of its first IDAT chunk's data changed (its CRC no longer matches). */
export function corruptPng(bytes: Buffer): Buffer {
  const out = Buffer.from(bytes);
  const idat = out.indexOf('IDAT', 8, 'latin1');
  if (idat < 0) throw new Error('no IDAT chunk');
  out.writeUInt8(out.readUInt8(idat + 14) ^ 0xff, idat + 14); // the 11th byte of its data
  return out;
}

/** A well-formed PNG of the given size in one colour: right size, wrong content. */
export function blankPng(width: number, height: number, rgb: Rgb = [255, 255, 255]): Buffer {
  const png = new PNG({ width, height });
  for (let i = 0; i < width * height; i++) png.data.set([...rgb, 255], i * 4);
  return PNG.sync.write(png);
}
