/**
 * The one reader of image URLs in a test result (src/api/screenshots.ts), used by the screenshot
 * selection (artifacts) and the report model.
 */
import { describe, expect, it } from 'vitest';
import { resultImages } from '../../../src/api/screenshots.js';
import type { ImageRef, TestResult } from '../../../emulator/api-types.js';

const image = (url: string, size = 1234): ImageRef => ({
  defaultUrl: url,
  dims: { h: 1, w: 1 },
  path: 'p',
  size,
});

describe('resultImages', () => {
  it('reads the final screenshot and the comparison image with their thumbnails and sizes', () => {
    const result: Pick<TestResult, 'screenshot' | 'screenshotCompare'> = {
      screenshot: { original: image('https://s/original.png', 2048), small: image('https://s/small.png') },
      screenshotCompare: {
        compareOriginal: image('https://s/compare.png', 512),
        compareSmall: image('https://s/cs.png'),
      },
    };
    expect(resultImages(result)).toEqual({
      screenshot: { url: 'https://s/original.png', smallUrl: 'https://s/small.png', bytes: 2048 },
      comparison: { url: 'https://s/compare.png', smallUrl: 'https://s/cs.png', bytes: 512 },
    });
  });

  it('gives no image without a full-size URL, and no thumbnail when it is empty', () => {
    expect(resultImages({})).toEqual({});
    const partial = {
      screenshot: { original: image(''), small: image('https://s/small.png') },
      screenshotCompare: { compareOriginal: image('https://s/compare.png'), compareSmall: image('') },
    };
    expect(resultImages(partial)).toEqual({ comparison: { url: 'https://s/compare.png', bytes: 1234 } });
  });

  it('counts an unknown size as 0 bytes', () => {
    const original = { defaultUrl: 'https://s/o.png' } as unknown as ImageRef;
    expect(resultImages({ screenshot: { original, small: original } }).screenshot?.bytes).toBe(0);
  });
});
