/**
 * A response envelope read as it arrives, its `data` list record by record (docs/performance.md, "Memory"):
 * each record is parsed on its own and handed to `keep` at once, so a list of thousands of records never
 * exists whole, neither as bytes, nor as text, nor as objects.
 */
import { parseJsonTolerant } from './parse.js';

/** The parsed envelope, its `data` list made of what `keep` kept; or, when the text is not JSON, its start. */
export type ListRead = { value: unknown; head: string } | { malformed: true; head: string };

/** Bytes of the answer kept for an excerpt (the excerpt shows at most 200 characters, redacted first). */
const HEAD_BYTES = 1_000;
const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COMMA = 0x2c;
const COLON = 0x3a;
const OPEN_OBJECT = 0x7b;
const CLOSE_OBJECT = 0x7d;
const OPEN_LIST = 0x5b;
const CLOSE_LIST = 0x5d;
/** What stands in the envelope for a record cut out of it. */
const PLACEHOLDER = Buffer.from('{}');

/**
 * Splits UTF-8 JSON bytes into the envelope (each record of its top-level `data` list replaced by `{}`) and
 * the records, each parsed alone. Only structure is scanned here (bytes of `"{}[],:` outside strings, which
 * never occur inside a multi-byte character): each record and the envelope are then parsed by `JSON.parse`,
 * so a text is accepted exactly when it is JSON (a record is valid JSON wherever the envelope shows a value).
 * A record is an object or a list; other items of `data` stay in the envelope.
 */
class RecordSplitter {
  /** The envelope with every record of `data` replaced by `{}` (copies: no chunk is held). */
  private outer: Buffer[] = [];
  /** The envelope's pieces of the chunk being read (views), copied into `outer` when the chunk is read. */
  private pending: Buffer[] = [];
  /** The pieces of the record being read (views of the chunks, until the record ends). */
  private record: Buffer[] = [];
  private inRecord = false;
  private depth = 0;
  private inString = false;
  private escaped = false;
  /** At depth 1: the next string is a key. */
  private expectKey = false;
  /** The pieces of the depth-1 key being read, or null; `key` is the last key read at depth 1. */
  private keyParts: Buffer[] | null = null;
  private key = '';
  /** Inside the top-level `data` list. */
  private inData = false;
  /** What `keep` made of the records of the last `data` list, in order. */
  private kept: unknown[] = [];
  /** The structure is broken (a close with nothing open, a record that is not JSON). */
  broken = false;

  constructor(private readonly keep: (record: unknown) => unknown) {}

  /** Reads the next chunk. @throws what `keep` throws */
  feed(chunk: Buffer): void {
    let from = 0;
    for (let i = 0; i < chunk.length && !this.broken; i++) {
      const b = chunk[i];
      if (this.inString) {
        if (this.escaped) this.escaped = false;
        else if (b === BACKSLASH) this.escaped = true;
        else if (b === QUOTE) {
          this.inString = false;
          if (this.keyParts) this.endKey(chunk.subarray(from, i + 1));
        }
      } else if (b === QUOTE) {
        this.inString = true;
        if (this.depth === 1 && this.expectKey) {
          this.append(chunk, from, i);
          from = i;
          this.keyParts = [];
        }
      } else if (b === OPEN_OBJECT || b === OPEN_LIST) {
        if (this.inData && this.depth === 2) {
          this.append(chunk, from, i);
          this.pending.push(PLACEHOLDER);
          this.inRecord = true;
          from = i;
        }
        if (this.depth === 1 && b === OPEN_LIST && !this.expectKey && this.key === 'data') {
          this.inData = true;
          this.kept = [];
        }
        this.depth++;
        this.expectKey = this.depth === 1 && b === OPEN_OBJECT;
      } else if (b === CLOSE_OBJECT || b === CLOSE_LIST) {
        this.depth--;
        if (this.depth < 0) this.broken = true;
        else if (this.inRecord && this.depth === 2) {
          this.append(chunk, from, i + 1);
          from = i + 1;
          this.endRecord();
        } else if (this.inData && this.depth === 1) this.inData = false;
      } else if (this.depth === 1 && (b === COMMA || b === COLON)) {
        this.expectKey = b === COMMA;
      }
    }
    this.append(chunk, from, chunk.length);
    if (this.keyParts) this.keyParts.push(Buffer.from(chunk.subarray(from)));
    this.keepPending();
  }

  /**
   * Copies this chunk's envelope pieces into one buffer of their own. A small copy by `Buffer.from` or
   * `Buffer.concat` would be a slice of Node's shared pool (64 KiB under Node 24) and hold all of it for as
   * long as the answer is read: hundreds of records meant hundreds of pools held.
   */
  private keepPending(): void {
    if (this.pending.length === 0) return;
    const copy = Buffer.allocUnsafeSlow(this.pending.reduce((n, piece) => n + piece.length, 0));
    let at = 0;
    for (const piece of this.pending) at += piece.copy(copy, at);
    this.outer.push(copy);
    this.pending = [];
  }

  /** The envelope, its `data` list made of the kept records; null when the text is not JSON. */
  end(): unknown {
    if (this.broken || this.inString || this.depth !== 0) return null;
    let envelope: unknown;
    try {
      envelope = parseJsonTolerant(Buffer.concat(this.outer).toString('utf8'));
    } catch {
      return null;
    }
    // Every object or list of `data` is a placeholder: each record was cut out of the text.
    const data = (envelope as { data?: unknown } | null)?.data;
    if (!Array.isArray(data)) return envelope;
    let next = 0;
    for (let k = 0; k < data.length; k++) {
      if (data[k] && typeof data[k] === 'object') data[k] = this.kept[next++];
    }
    return next === this.kept.length ? envelope : null;
  }

  private append(chunk: Buffer, from: number, to: number): void {
    if (to <= from) return;
    if (this.inRecord) this.record.push(chunk.subarray(from, to));
    else this.pending.push(chunk.subarray(from, to));
  }

  private endKey(last: Buffer): void {
    const raw = Buffer.concat([...this.keyParts!, last]).toString('utf8');
    this.keyParts = null;
    try {
      this.key = String(parseJsonTolerant(raw));
    } catch {
      this.broken = true;
    }
  }

  private endRecord(): void {
    // A record within one chunk is read from that chunk: no copy of its bytes.
    const [only, ...more] = this.record;
    const raw = (more.length === 0 ? only : Buffer.concat(this.record)).toString('utf8');
    this.record = [];
    this.inRecord = false;
    let parsed: unknown;
    try {
      parsed = parseJsonTolerant(raw);
    } catch {
      this.broken = true;
      return;
    }
    this.kept.push(this.keep(parsed));
  }
}

/**
 * Reads a JSON answer from its chunks (UTF-8 bytes, any split) with each record of the envelope's `data`
 * list parsed alone and handed to `keep`; what `keep` returns takes its place. `malformed` when the whole
 * text is not JSON (cut short, broken): `head` is its start, for the error's excerpt.
 * @throws what `chunks` throws (a network error, an abort) and what `keep` throws
 */
export async function readListEnvelope(
  chunks: AsyncIterable<Buffer>,
  keep: (record: unknown) => unknown,
): Promise<ListRead> {
  const splitter = new RecordSplitter(keep);
  const head: Buffer[] = [];
  let headBytes = 0;
  const headText = (): string => Buffer.concat(head).toString('utf8');
  for await (const chunk of chunks) {
    if (headBytes < HEAD_BYTES) {
      head.push(Buffer.from(chunk.subarray(0, HEAD_BYTES - headBytes)));
      headBytes += head[head.length - 1].length;
    }
    splitter.feed(chunk);
    if (splitter.broken) return { malformed: true, head: headText() };
  }
  const value = splitter.end();
  return value === null ? { malformed: true, head: headText() } : { value, head: headText() };
}
