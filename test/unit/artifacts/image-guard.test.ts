/**
 * What a screenshot download accepts (`src/artifacts/image-guard.ts`, docs/api-contract.md,
 * "Artifacts"): the URL's scheme and redirects, and a body that starts like a PNG (signature, then the IHDR
 * chunk: PNG specification, 5.2 and 5.3) or a JPEG (start of image, then a marker 0xC0–0xFE: ITU-T T.81,
 * B.1.1.3), within the size cap, judged at the byte bounds.
 */
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { describe, expect, it } from 'vitest';
import { checkImageUrl, imageGuard, RefusedDownload } from '../../../src/artifacts/image-guard.js';

const PNG_HEAD = Buffer.from([
  0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0x00, 0x00, 0x00, 0x0d, 0x49, 0x48, 0x44, 0x52,
]);

/** A JPEG start of image, then marker `marker`, padded to 16 bytes. */
const jpeg = (marker: number): Buffer =>
  Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, marker]), Buffer.alloc(12)]);

/** Streams `chunks` through an image guard of `maxBytes`; the bytes passed on, or the refusal. */
async function guard(chunks: Buffer[], maxBytes?: number): Promise<Buffer | RefusedDownload> {
  const out: Buffer[] = [];
  try {
    await pipeline(Readable.from(chunks), imageGuard(maxBytes), async (source: AsyncIterable<Buffer>) => {
      for await (const chunk of source) out.push(chunk);
    });
    return Buffer.concat(out);
  } catch (e) {
    if (e instanceof RefusedDownload) return e;
    throw e;
  }
}

describe('checkImageUrl', () => {
  it('takes https always and http only when allowed', () => {
    expect(() => checkImageUrl('https://storage.example/a.png', false)).not.toThrow();
    expect(() => checkImageUrl('http://storage.example/a.png', true)).not.toThrow();
    expect(() => checkImageUrl('http://storage.example/a.png', false)).toThrow(
      'URL scheme http refused (only https)',
    );
    expect(() => checkImageUrl('ftp://storage.example/a.png', true)).toThrow(
      'URL scheme ftp refused (only https or http)',
    );
  });

  it('follows a redirect to http only from http', () => {
    expect(() => checkImageUrl('http://b.example/a.png', true, 'http://a.example/a.png')).not.toThrow();
    expect(() => checkImageUrl('https://b.example/a.png', true, 'https://a.example/a.png')).not.toThrow();
    expect(() => checkImageUrl('http://b.example/a.png', true, 'https://a.example/a.png')).toThrow(
      'redirected to http URL refused (only https or http)',
    );
  });

  it('refuses a URL that does not parse, as a refused download', () => {
    let error: unknown;
    try {
      checkImageUrl('not a url', true);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(RefusedDownload);
    expect(error).toMatchObject({ name: 'RefusedDownload', message: 'not a valid URL' });
  });
});

describe('imageGuard', () => {
  it('passes a body of exactly the head, a PNG, whole', async () => {
    expect(await guard([PNG_HEAD])).toEqual(PNG_HEAD);
  });

  it('passes a head that arrives in pieces, and what follows it', async () => {
    const body = Buffer.concat([PNG_HEAD, Buffer.from('rest of the image')]);
    expect(await guard([body.subarray(0, 5), body.subarray(5, 12), body.subarray(12)])).toEqual(body);
  });

  it('takes a JPEG whose next marker is 0xC0 to 0xFE, not below or 0xFF', async () => {
    expect(await guard([jpeg(0xc0)])).toEqual(jpeg(0xc0));
    expect(await guard([jpeg(0xfe)])).toEqual(jpeg(0xfe));
    expect(await guard([jpeg(0xbf)])).toMatchObject({ message: 'not a PNG or JPEG image' });
    expect(await guard([jpeg(0xff)])).toMatchObject({ message: 'not a PNG or JPEG image' });
  });

  it('passes an empty body (the caller retries it), refuses one shorter than the head', async () => {
    expect(await guard([])).toEqual(Buffer.alloc(0));
    expect(await guard([PNG_HEAD.subarray(0, 8)])).toMatchObject({
      message: 'not a PNG or JPEG image (8 bytes)',
    });
  });

  it('passes a body of exactly the cap, refuses one byte more', async () => {
    const body = Buffer.concat([PNG_HEAD, Buffer.alloc(16)]);
    expect(await guard([body], 32)).toEqual(body);
    const over = await guard([body, Buffer.alloc(1)], 32);
    expect(over).toBeInstanceOf(RefusedDownload);
    expect(over).toMatchObject({ message: expect.stringMatching(/^larger than/) });
  });
});
