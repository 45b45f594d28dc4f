/** What a screenshot download accepts (scheme, redirects, size, a PNG or JPEG body), checked before saving. */
import { Transform, type TransformCallback } from 'node:stream';

/** Largest screenshot kept, bytes (20 MiB); a larger one is refused while it streams. */
export const MAX_SCREENSHOT_BYTES = 20 * 1024 * 1024;

export const MAX_REDIRECTS = 3;

/** A download refused by a check: not retried, reported as the screenshot's reason. */
export class RefusedDownload extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'RefusedDownload';
  }
}

/**
 * Throws RefusedDownload naming the scheme unless `url` is `https` (or `http` when `allowHttp`) and not a
 * redirect (`from` set) from `https` to `http`. Any host may serve a screenshot: no credential is sent.
 */
export function checkImageUrl(url: string, allowHttp: boolean, from?: string): void {
  let protocol: string;
  try {
    protocol = new URL(url).protocol;
  } catch {
    throw new RefusedDownload('not a valid URL');
  }
  const allowed = protocol === 'https:' || (protocol === 'http:' && allowHttp);
  const downgrade = protocol === 'http:' && from !== undefined && new URL(from).protocol === 'https:';
  if (!allowed || downgrade) {
    const scheme = protocol.replace(/:$/, '');
    throw new RefusedDownload(
      `${from ? 'redirected to' : 'URL scheme'} ${scheme}${from ? ' URL' : ''} refused (only https${allowHttp ? ' or http' : ''})`,
    );
  }
}

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
/** A PNG's first chunk: IHDR, 13 bytes long (PNG specification, 5.3 and 5.6: "IHDR shall be first"). */
const PNG_FIRST_CHUNK = Buffer.from([0x00, 0x00, 0x00, 0x0d, 0x49, 0x48, 0x44, 0x52]);
/** A JPEG's start of image, then the 0xFF of the next marker (ITU-T T.81, B.1.1.3 and B.2.1). */
const JPEG_START = Buffer.from([0xff, 0xd8, 0xff]);

/** Bytes read before a body is judged: a PNG's signature and its first chunk's length and type. */
const HEAD_BYTES = 16;

/** PNG signature then IHDR, or JPEG start then a marker 0xC0–0xFE: a signature then an HTML page is no image. */
function isImage(head: Buffer): boolean {
  if (head.subarray(0, 8).equals(PNG_SIGNATURE)) return head.subarray(8, 16).equals(PNG_FIRST_CHUNK);
  const marker = head[3] ?? 0;
  return head.subarray(0, 3).equals(JPEG_START) && marker >= 0xc0 && marker <= 0xfe;
}

/**
 * A pass-through stream failing with RefusedDownload on a body over `maxBytes` (as soon as it passes the cap),
 * or not starting like a PNG or JPEG, or shorter than {@link HEAD_BYTES} (before its first byte passes on).
 */
export function imageGuard(maxBytes = MAX_SCREENSHOT_BYTES): Transform {
  let seen = 0;
  let head: Buffer | null = Buffer.alloc(0);
  const tooLarge = (): RefusedDownload =>
    new RefusedDownload(`larger than ${Math.round(maxBytes / 1024 / 1024)} MiB`);
  const notImage = (): RefusedDownload => new RefusedDownload('not a PNG or JPEG image');
  return new Transform({
    transform(chunk: Buffer, _encoding, done: TransformCallback) {
      seen += chunk.length;
      if (seen > maxBytes) return done(tooLarge());
      if (head === null) return done(null, chunk);
      head = Buffer.concat([head, chunk]);
      if (head.length < HEAD_BYTES) return done();
      if (!isImage(head)) return done(notImage());
      const all = head;
      head = null;
      done(null, all);
    },
    flush(done: TransformCallback) {
      if (head === null) return done();
      // An empty body passes: the caller retries it. No PNG or JPEG is shorter than its head.
      if (head.length === 0) return done(null, head);
      done(new RefusedDownload(`not a PNG or JPEG image (${head.length} bytes)`));
    },
  });
}
