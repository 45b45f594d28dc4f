/**
 * The image operations the engine needs, on top of the PNG format module: thumbnails, sizes and
 * screenshot comparison (pixelmatch).
 */
import { comparePngs, pngSize, scalePng } from './formats/png.js';

/** Width in px of the `small` screenshot and comparison images. */
export const SMALL_WIDTH = 320;

export interface ImageKit {
  /** A copy at most SMALL_WIDTH px wide. */
  thumbnail(png: Buffer): Buffer;
  size(png: Buffer): { width: number; height: number };
  /** Fraction of differing pixels (0..1) and the comparison image. */
  compare(baseline: Buffer, current: Buffer): { difference: number; diff: Buffer };
}

/** The image kit backed by `formats/png.ts`. */
export const pngImageKit: ImageKit = {
  thumbnail: (png) => scalePng(png, SMALL_WIDTH),
  size: (png) => pngSize(png),
  compare: (baseline, current) => {
    const { difference, diffPng } = comparePngs(baseline, current, 1);
    return { difference, diff: diffPng };
  },
};
