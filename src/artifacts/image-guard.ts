/**
 * What a screenshot download accepts: scheme, redirects, size and a PNG or JPEG body, checked before each
 * request and while the body streams, before anything is saved.
 */
import { Transform, type TransformCallback } from 'node:stream';

/** Largest screenshot kept, bytes (20 MiB); a larger one is refused while it streams. */
export const MAX_SCREENSHOT_BYTES = 20 * 1024 * 1024;

/** Redirects followed for one screenshot. */
export const MAX_REDIRECTS = 3;

/** A download refused by a check: not retried, reported as the screenshot's reason. */
export class RefusedDownload extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'RefusedDownload';
  }
}

/**
 * Checks a URL before it is requested: `https` (or `http` when `allowHttp`), and no redirect (`from` set)
 * from `https` to `http`. Any host may serve a screenshot: no credential is sent with it.
 * @throws RefusedDownload naming the scheme
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

const SIGNATURES = [
  Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), // PNG
  Buffer.from([0xff, 0xd8, 0xff]), // JPEG
];
const SIGNATURE_BYTES = 8;

function isImage(head: Buffer): boolean {
  return SIGNATURES.some((s) => head.length >= s.length && head.subarray(0, s.length).equals(s));
}

/**
 * A pass-through stream that refuses a body larger than `maxBytes` (as soon as it passes the cap) or not
 * starting with a PNG or JPEG signature (before the first byte is passed on).
 * @throws (as a stream error) RefusedDownload
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
      if (head.length < SIGNATURE_BYTES) return done();
      if (!isImage(head)) return done(notImage());
      const all = head;
      head = null;
      done(null, all);
    },
    flush(done: TransformCallback) {
      if (head === null) return done();
      // An empty body passes: the caller retries it.
      if (head.length === 0 || isImage(head)) return done(null, head);
      done(notImage());
    },
  });
}
