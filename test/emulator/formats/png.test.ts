import { PNG } from 'pngjs';
import { describe, expect, it } from 'vitest';
import {
  comparePngs,
  decodePng,
  pngSize,
  renderPlaceholderScreenshot,
  scalePng,
  solidPng,
} from '../../../emulator/formats/png.js';

function pixel(png: Buffer, x: number, y: number): number[] {
  const img = PNG.sync.read(png);
  const i = (y * img.width + x) * 4;
  return [...img.data.subarray(i, i + 4)];
}

describe('solidPng', () => {
  it('encodes a real PNG of the given size and colour', () => {
    const png = solidPng(40, 30, [200, 10, 20, 255]);
    expect(pngSize(png)).toEqual({ width: 40, height: 30 });
    const img = decodePng(png);
    expect(img.width).toBe(40);
    expect(pixel(png, 0, 0)).toEqual([200, 10, 20, 255]);
    expect(pixel(png, 39, 29)).toEqual([200, 10, 20, 255]);
  });

  it('writes text in a contrasting colour', () => {
    const png = solidPng(200, 100, [255, 255, 255, 255], 'HI');
    const img = decodePng(png);
    let dark = 0;
    for (let i = 0; i < img.data.length; i += 4) if (img.data[i] === 0) dark++;
    expect(dark).toBeGreaterThan(10);
    expect(pixel(png, 199, 99)).toEqual([255, 255, 255, 255]);
  });

  it('rejects an invalid size', () => {
    expect(() => solidPng(0, 10, [0, 0, 0, 255])).toThrow(/Invalid image size 0x10/);
    expect(() => pngSize(Buffer.from('not a png at all, really not'))).toThrow(/Not a PNG/);
  });
});

describe('renderPlaceholderScreenshot', () => {
  it('is deterministic per label and differs between labels', () => {
    const a = renderPlaceholderScreenshot('Checkout', 320, 240);
    expect(Buffer.compare(a, renderPlaceholderScreenshot('Checkout', 320, 240))).toBe(0);
    const other = comparePngs(a, renderPlaceholderScreenshot('Login', 320, 240), 0);
    expect(other.difference).toBeGreaterThan(0.01);
  });

  it.each([0.05, 0.2, 0.5])('differs from its variant 0 by the chosen fraction %s', (fraction) => {
    const base = renderPlaceholderScreenshot('Cart', 200, 150);
    const changed = renderPlaceholderScreenshot('Cart', 200, 150, fraction);
    const result = comparePngs(base, changed, 0.1);
    expect(result.difference).toBeGreaterThan(fraction - 0.01);
    expect(result.difference).toBeLessThanOrEqual(fraction);
    expect(result.passing).toBe(fraction <= 0.1);
  });
});

describe('comparePngs', () => {
  it('finds no difference between equal images', () => {
    const a = renderPlaceholderScreenshot('Same', 100, 80);
    const r = comparePngs(a, a, 0);
    expect(r).toMatchObject({ difference: 0, passing: true, differingPixels: 0, width: 100, height: 80 });
    expect(pngSize(r.diffPng)).toEqual({ width: 100, height: 80 });
  });

  it('measures a known changed area and marks it red in the diff image', () => {
    const base = PNG.sync.read(solidPng(100, 100, [255, 255, 255, 255]));
    const changed = PNG.sync.read(solidPng(100, 100, [255, 255, 255, 255]));
    for (let y = 10; y < 30; y++)
      for (let x = 10; x < 60; x++) changed.data.set([0, 0, 255, 255], (y * 100 + x) * 4);
    const r = comparePngs(PNG.sync.write(base), PNG.sync.write(changed), 0.05);
    // 50 x 20 = 1000 of 10000 pixels; edge pixels may be judged anti-aliased
    expect(r.differingPixels).toBeGreaterThan(900);
    expect(r.differingPixels).toBeLessThanOrEqual(1000);
    expect(r.passing).toBe(false);
    expect(pixel(r.diffPng, 30, 20).slice(0, 3)).toEqual([255, 0, 0]);
    expect(pixel(r.diffPng, 90, 90).slice(0, 3)).not.toEqual([255, 0, 0]);
  });

  it('pads images of different sizes and counts the missing area as different', () => {
    const small = solidPng(100, 50, [255, 255, 255, 255]);
    const tall = solidPng(100, 100, [255, 255, 255, 255]);
    const r = comparePngs(small, tall, 0.1);
    expect(r.width).toBe(100);
    expect(r.height).toBe(100);
    expect(r.difference).toBeCloseTo(0.5, 5);
    expect(r.passing).toBe(false);
    const wide = comparePngs(solidPng(50, 100, [0, 0, 0, 255]), solidPng(100, 50, [0, 0, 0, 255]), 0.6);
    expect(wide.differingPixels).toBe(2 * 50 * 50);
    expect(wide.difference).toBeCloseTo(0.5, 5);
    expect(wide.passing).toBe(true);
  });

  it('rejects a threshold outside 0..1', () => {
    const a = solidPng(2, 2, [0, 0, 0, 255]);
    expect(() => comparePngs(a, a, 1.5)).toThrow(/threshold 1.5/);
  });
});

describe('scalePng', () => {
  it('makes a smaller copy keeping the aspect ratio and colours', () => {
    const png = solidPng(1024, 768, [10, 120, 240, 255]);
    const small = scalePng(png, 320);
    expect(pngSize(small)).toEqual({ width: 320, height: 240 });
    expect(pixel(small, 100, 100)).toEqual([10, 120, 240, 255]);
    expect(pngSize(scalePng(solidPng(100, 50, [0, 0, 0, 255]), 320))).toEqual({ width: 100, height: 50 });
  });

  it('averages pixels when shrinking', () => {
    const img = PNG.sync.read(solidPng(4, 2, [0, 0, 0, 255]));
    for (const x of [1, 3]) for (const y of [0, 1]) img.data.set([255, 255, 255, 255], (y * 4 + x) * 4);
    const small = scalePng(PNG.sync.write(img), 2);
    expect(pngSize(small)).toEqual({ width: 2, height: 1 });
    expect(pixel(small, 0, 0)).toEqual([128, 128, 128, 255]);
  });
});
