/**
 * The image operations the engine and the simulated executor need, on top of the PNG format module:
 * placeholder screenshots, thumbnails, sizes and screenshot comparison (pixelmatch). Rendering and comparing
 * cost hundreds of ms per full-size image, and simulated runs repeat the same pixels, so results are memoised
 * (bounded, most recently used kept).
 */
import { comparePngs, pngSize, renderPlaceholderScreenshot, scalePng } from './formats/png.js';

/** Width in px of the `small` screenshot and comparison images. */
export const SMALL_WIDTH = 320;

export interface ImageKit {
  /** A copy at most SMALL_WIDTH px wide. */
  thumbnail(png: Buffer): Buffer;
  size(png: Buffer): { width: number; height: number };
  /** Fraction of differing pixels (0..1) and the comparison image. */
  compare(baseline: Buffer, current: Buffer): { difference: number; diff: Buffer };
}

/** Looks `key` up in a bounded cache (the `limit` most recently used entries), computing it when missing. */
function cached<K, V>(cache: Map<K, V>, key: K, compute: () => V, limit = 64): V {
  const hit = cache.get(key);
  if (hit !== undefined) {
    cache.delete(key);
    cache.set(key, hit);
    return hit;
  }
  const value = compute();
  cache.set(key, value);
  if (cache.size > limit) cache.delete(cache.keys().next().value as K);
  return value;
}

const renders = new Map<string, Buffer>();
const thumbnails = new Map<Buffer, Buffer>();
const comparisons = new Map<string, { difference: number; diff: Buffer }>();
const ids = new WeakMap<Buffer, number>();
let nextId = 0;
const idOf = (png: Buffer) => {
  let id = ids.get(png);
  if (id === undefined) ids.set(png, (id = ++nextId));
  return id;
};

/**
 * A deterministic placeholder screenshot (label, width x height px, `variant` fraction of pixels changed);
 * the same arguments give the same Buffer object.
 */
export function placeholderScreenshot(label: string, width: number, height: number, variant: number): Buffer {
  return cached(renders, JSON.stringify([label, width, height, variant]), () =>
    renderPlaceholderScreenshot(label, width, height, variant),
  );
}

/** The image kit backed by `formats/png.ts`, memoised by Buffer identity. */
export const pngImageKit: ImageKit = {
  thumbnail: (png) => cached(thumbnails, png, () => scalePng(png, SMALL_WIDTH)),
  size: (png) => pngSize(png),
  compare: (baseline, current) =>
    cached(comparisons, `${idOf(baseline)}:${idOf(current)}`, () => {
      const { difference, diffPng } = comparePngs(baseline, current, 1);
      return { difference, diff: diffPng };
    }),
};
