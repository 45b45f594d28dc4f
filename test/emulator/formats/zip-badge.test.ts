import { strFromU8, unzipSync } from 'fflate';
import { describe, expect, it } from 'vitest';
import { parseXml } from '../../support/junit.js';
import { BADGE_STATES, badgeSvg, badgeText } from '../../../emulator/formats/badge.js';
import { zipFiles } from '../../../emulator/formats/zip.js';

describe('zipFiles', () => {
  it('writes a real zip archive readable by an unzipper', () => {
    const bytes = new Uint8Array([0, 1, 2, 255]);
    const zip = zipFiles([
      { name: 'Checkout.json', content: '{"name":"Checkout – ünïcode"}' },
      { name: 'img/shot.png', content: bytes },
      { name: 'Checkout.json', content: 'second' },
      { name: '../../etc/passwd', content: 'x' },
    ]);
    expect(zip.subarray(0, 4).toString('hex')).toBe('504b0304');
    const files = unzipSync(zip);
    expect(Object.keys(files).sort()).toEqual([
      'Checkout (2).json',
      'Checkout.json',
      'etc/passwd',
      'img/shot.png',
    ]);
    expect(strFromU8(files['Checkout.json']!)).toBe('{"name":"Checkout – ünïcode"}');
    expect(strFromU8(files['Checkout (2).json']!)).toBe('second');
    expect([...files['img/shot.png']!]).toEqual([0, 1, 2, 255]);
  });

  it('writes an empty archive for no files', () => {
    expect(Object.keys(unzipSync(zipFiles([])))).toEqual([]);
  });
});

describe('badgeSvg', () => {
  it('covers every state of the contract, and a module\'s "Import Only"', () => {
    expect(BADGE_STATES).toEqual([
      'passing',
      'partially-failing',
      'failing',
      'running',
      'unknown',
      'screenshot-compare-passing',
      'screenshot-compare-failing',
      'import-only',
    ]);
  });

  it.each(BADGE_STATES)('draws a well-formed SVG for %s', (state) => {
    const svg = badgeSvg(state);
    const { label, message } = badgeText(state);
    expect(svg.startsWith('<svg xmlns="http://www.w3.org/2000/svg"')).toBe(true);
    expect(svg).toContain(`<title>${label}: ${message}</title>`);
    expect(svg).toContain(`>${message}</text>`);
    const width = Number(/width="(\d+)"/.exec(svg)?.[1]);
    expect(width).toBeGreaterThan(60);
    expect(() => parseXml(svg)).not.toThrow();
  });

  it('gives each state its own message or colour', () => {
    const looks = new Set(BADGE_STATES.map((s) => badgeSvg(s)));
    expect(looks.size).toBe(BADGE_STATES.length);
    expect(badgeText('partially-failing').message).toBe('partially failing');
    expect(badgeText('screenshot-compare-failing')).toEqual({ label: 'screenshot', message: 'failing' });
    expect(badgeSvg('failing')).toContain('#e05d44');
    expect(badgeSvg('passing')).toContain('#4c1');
  });

  it('rejects an unknown state', () => {
    expect(() => badgeSvg('green' as never)).toThrow(/Unknown badge state "green"/);
  });
});
