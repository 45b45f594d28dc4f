/**
 * PNG images for screenshots and screenshot comparison (docs/api-contract.md, "Resources": `screenshot` with
 * `original` and `small`, `screenshotCompare` with `compareOriginal` and `compareSmall`,
 * `screenshotCompareDifference`, `screenshotComparePassing`, `screenshotCompareThreshold`).
 *
 * Encoding and decoding use pngjs; the pixel comparison uses pixelmatch. Placeholder screenshots (for the
 * simulated executor) are real images, so a simulated screenshot difference is a real pixel difference
 * that `comparePngs` measures.
 */
import { PNG } from 'pngjs';
import pixelmatch from 'pixelmatch';

/** An RGBA colour, each channel 0..255. */
export type Rgba = [number, number, number, number];

/** Width and height of an image in pixels. */
export interface PngSize {
  width: number;
  height: number;
}

/** Outcome of a screenshot comparison. */
export interface PngComparison {
  /** Fraction of differing pixels over the larger canvas, 0..1. */
  difference: number;
  /** `difference <= threshold`. */
  passing: boolean;
  /** The pixels that differ in red over a faded copy of the current image (size: the larger canvas). */
  diffPng: Buffer;
  /** Number of differing pixels. */
  differingPixels: number;
  width: number;
  height: number;
}

/** 3x5 pixel glyphs for placeholder labels: 15 bits, rows top to bottom, 3 bits a row. */
const GLYPHS: Record<string, string> = {
  A: '010101111101101',
  B: '110101110101110',
  C: '011100100100011',
  D: '110101101101110',
  E: '111100110100111',
  F: '111100110100100',
  G: '011100101101011',
  H: '101101111101101',
  I: '111010010010111',
  J: '001001001101010',
  K: '101101110101101',
  L: '100100100100111',
  M: '101111111101101',
  N: '110101101101101',
  O: '010101101101010',
  P: '110101110100100',
  Q: '010101101110011',
  R: '110101110101101',
  S: '011100010001110',
  T: '111010010010010',
  U: '101101101101111',
  V: '101101101101010',
  W: '101101111111101',
  X: '101101010101101',
  Y: '101101010010010',
  Z: '111001010100111',
  '0': '111101101101111',
  '1': '010110010010111',
  '2': '110001010100111',
  '3': '110001010001110',
  '4': '101101111001001',
  '5': '111100110001110',
  '6': '011100111101111',
  '7': '111001010010010',
  '8': '111101111101111',
  '9': '111101111001110',
  ' ': '000000000000000',
  '-': '000000111000000',
  '.': '000000000000010',
  ':': '000010000010000',
  '/': '001001010100100',
  _: '000000000000111',
  '(': '010100100100010',
  ')': '010001001001010',
  '#': '101111101111101',
  '!': '010010010000010',
  '?': '110001010000010',
  $: '011110010011110',
  '=': '000111000111000',
  '+': '000010111010000',
  ',': '000000000010100',
  "'": '010010000000000',
};

function checkSize(width: number, height: number): void {
  if (!Number.isInteger(width) || !Number.isInteger(height) || width < 1 || height < 1) {
    throw new Error(`Invalid image size ${width}x${height}: width and height must be positive integers`);
  }
  if (width * height > 50_000_000) throw new Error(`Image size ${width}x${height} is too large`);
}

function setPixel(png: PNG, x: number, y: number, c: Rgba): void {
  if (x < 0 || y < 0 || x >= png.width || y >= png.height) return;
  const i = (y * png.width + x) * 4;
  png.data[i] = c[0];
  png.data[i + 1] = c[1];
  png.data[i + 2] = c[2];
  png.data[i + 3] = c[3];
}

function fillRect(png: PNG, x0: number, y0: number, w: number, h: number, c: Rgba): void {
  for (let y = Math.max(0, y0); y < Math.min(png.height, y0 + h); y++) {
    for (let x = Math.max(0, x0); x < Math.min(png.width, x0 + w); x++) setPixel(png, x, y, c);
  }
}

/** Draws `text` (upper-cased) in 3x5 glyphs scaled by `scale`, clipped to the image. */
function drawText(png: PNG, text: string, x0: number, y0: number, scale: number, c: Rgba): void {
  let x = x0;
  for (const ch of text.toUpperCase()) {
    const glyph = GLYPHS[ch] ?? GLYPHS['?'] ?? '';
    for (let bit = 0; bit < 15; bit++) {
      if (glyph[bit] === '1')
        fillRect(png, x + (bit % 3) * scale, y0 + Math.floor(bit / 3) * scale, scale, scale, c);
    }
    x += 4 * scale;
    if (x >= png.width) break;
  }
}

function newPng(width: number, height: number, fill: Rgba): PNG {
  checkSize(width, height);
  const png = new PNG({ width, height });
  png.data.fill(Buffer.from(fill));
  return png;
}

/** Encodes with the Sub filter on every row: several times faster than choosing per row, a little larger. */
function encode(png: PNG): Buffer {
  return PNG.sync.write(png, { filterType: 1 });
}

/** Decodes a PNG into its size and RGBA pixels. Throws when `png` is not a valid PNG. */
export function decodePng(png: Buffer): { width: number; height: number; data: Buffer } {
  const img = PNG.sync.read(png);
  return { width: img.width, height: img.height, data: img.data };
}

/** Width and height of a PNG (reads the header only). Throws when `png` is not a PNG. */
export function pngSize(png: Buffer): PngSize {
  const signature = '89504e470d0a1a0a';
  if (png.length < 24 || png.subarray(0, 8).toString('hex') !== signature) throw new Error('Not a PNG image');
  return { width: png.readUInt32BE(16), height: png.readUInt32BE(20) };
}

/**
 * A PNG of `width` x `height` pixels filled with `rgba`; with `text`, the text is written near the top left
 * in a contrasting colour (3x5 pixel glyphs scaled to the image).
 */
export function solidPng(width: number, height: number, rgba: Rgba, text?: string): Buffer {
  const png = newPng(width, height, rgba);
  if (text) {
    const lum = 0.299 * rgba[0] + 0.587 * rgba[1] + 0.114 * rgba[2];
    const ink: Rgba = lum > 128 ? [0, 0, 0, 255] : [255, 255, 255, 255];
    const scale = Math.max(1, Math.floor(Math.min(width, height) / 40));
    drawText(png, text, 2 * scale, 2 * scale, scale, ink);
  }
  return encode(png);
}

/** A stable 32-bit hash of a string (FNV-1a). */
function hash(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h;
}

/**
 * A placeholder page screenshot for `label` (e.g. a test name): white page, a header bar in a colour derived
 * from the label with the label written in it, and grey content blocks placed from the label. The same
 * label and size always give the same pixels.
 *
 * `variant` (0..1, default 0) is the fraction of pixels to change: that many pixels, from the bottom row
 * upwards, are painted black or white (whichever is farther from the original), so `comparePngs` against
 * variant 0 measures about `variant` as its difference.
 */
export function renderPlaceholderScreenshot(
  label: string,
  width: number,
  height: number,
  variant = 0,
): Buffer {
  if (!(variant >= 0 && variant <= 1))
    throw new Error(`Invalid variant ${variant}: expected a fraction 0..1`);
  const png = newPng(width, height, [255, 255, 255, 255]);
  const h = hash(label);
  const header: Rgba = [40 + (h & 0x7f), 40 + ((h >>> 8) & 0x7f), 40 + ((h >>> 16) & 0x7f), 255];
  const barHeight = Math.max(8, Math.round(height / 10));
  fillRect(png, 0, 0, width, barHeight, header);
  const scale = Math.max(1, Math.floor(barHeight / 8));
  drawText(
    png,
    label,
    2 * scale,
    Math.max(0, Math.floor((barHeight - 5 * scale) / 2)),
    scale,
    [255, 255, 255, 255],
  );
  let seed = h;
  const next = (): number => {
    seed = (Math.imul(seed, 1664525) + 1013904223) >>> 0;
    return seed / 0x100000000;
  };
  for (let b = 0; b < 6; b++) {
    const bw = Math.max(1, Math.round(width * (0.2 + 0.5 * next())));
    const bh = Math.max(1, Math.round(height * (0.04 + 0.08 * next())));
    const bx = Math.round((width - bw) * next());
    const by = barHeight + Math.round((height - barHeight - bh) * next());
    const grey = 170 + Math.round(60 * next());
    fillRect(png, bx, by, bw, bh, [grey, grey, grey, 255]);
  }
  const changed = Math.round(variant * width * height);
  for (let n = 0; n < changed; n++) {
    const p = width * height - 1 - n;
    const i = p * 4;
    const lum = 0.299 * (png.data[i] ?? 0) + 0.587 * (png.data[i + 1] ?? 0) + 0.114 * (png.data[i + 2] ?? 0);
    png.data.set(lum > 128 ? [0, 0, 0, 255] : [255, 255, 255, 255], i);
  }
  return encode(png);
}

/**
 * A smaller copy of `png` at most `maxWidth` pixels wide, aspect ratio kept (box-averaged). An image
 * already narrow enough is re-encoded unchanged in size. Throws when `png` is not a PNG or `maxWidth < 1`.
 */
export function scalePng(png: Buffer, maxWidth: number): Buffer {
  if (!(maxWidth >= 1)) throw new Error(`Invalid maxWidth ${maxWidth}: expected at least 1`);
  const src = PNG.sync.read(png);
  if (src.width <= maxWidth) return encode(src);
  const w = Math.floor(maxWidth);
  const h = Math.max(1, Math.round((src.height * w) / src.width));
  const out = new PNG({ width: w, height: h });
  const fx = src.width / w;
  const fy = src.height / h;
  for (let y = 0; y < h; y++) {
    const y0 = Math.floor(y * fy);
    const y1 = Math.max(y0 + 1, Math.floor((y + 1) * fy));
    for (let x = 0; x < w; x++) {
      const x0 = Math.floor(x * fx);
      const x1 = Math.max(x0 + 1, Math.floor((x + 1) * fx));
      const n = (y1 - y0) * (x1 - x0);
      const o = (y * w + x) * 4;
      for (let c = 0; c < 4; c++) {
        let sum = 0;
        for (let sy = y0; sy < y1; sy++) {
          for (let sx = x0; sx < x1; sx++) sum += src.data[(sy * src.width + sx) * 4 + c] ?? 0;
        }
        out.data[o + c] = Math.round(sum / n);
      }
    }
  }
  return encode(out);
}

/** Copies the top-left `w` x `h` pixels of an image. */
function crop(img: { width: number; data: Buffer }, w: number, h: number): Buffer {
  const out = Buffer.alloc(w * h * 4);
  for (let y = 0; y < h; y++) img.data.copy(out, y * w * 4, y * img.width * 4, (y * img.width + w) * 4);
  return out;
}

/**
 * Compares a screenshot with its baseline. Pixels are compared with pixelmatch (per-pixel colour
 * threshold 0.1, anti-aliased pixels ignored). When sizes differ, both are placed on the larger canvas:
 * pixels inside one image but not the other count as differing. `threshold` (0..1) is the screenshot compare
 * threshold: the comparison passes when the differing fraction is at most `threshold`.
 * Throws when either buffer is not a PNG or `threshold` is outside 0..1.
 */
export function comparePngs(baseline: Buffer, current: Buffer, threshold: number): PngComparison {
  if (!(threshold >= 0 && threshold <= 1)) {
    throw new Error(`Invalid screenshot compare threshold ${threshold}: expected 0.0 to 1.0`);
  }
  const a = PNG.sync.read(baseline);
  const b = PNG.sync.read(current);
  const width = Math.max(a.width, b.width);
  const height = Math.max(a.height, b.height);
  const ow = Math.min(a.width, b.width);
  const oh = Math.min(a.height, b.height);
  const overlapDiff = Buffer.alloc(ow * oh * 4);
  let differing = pixelmatch(crop(a, ow, oh), crop(b, ow, oh), overlapDiff, ow, oh, { threshold: 0.1 });
  const diff = new PNG({ width, height });
  for (let y = 0; y < oh; y++) overlapDiff.copy(diff.data, y * width * 4, y * ow * 4, (y + 1) * ow * 4);
  for (let y = 0; y < height; y++) {
    for (let x = y < oh ? ow : 0; x < width; x++) {
      const o = (y * width + x) * 4;
      const inA = x < a.width && y < a.height;
      const inB = x < b.width && y < b.height;
      if (inA !== inB) {
        differing++;
        diff.data.set([255, 0, 0, 255], o);
      } else {
        diff.data.set([255, 255, 255, 255], o);
      }
    }
  }
  const difference = differing / (width * height);
  return {
    difference,
    passing: difference <= threshold,
    diffPng: encode(diff),
    differingPixels: differing,
    width,
    height,
  };
}
