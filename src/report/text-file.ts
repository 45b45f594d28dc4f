/** Report files written piece by piece, so that a report of thousands of tests never exists whole as text. */
import { createWriteStream } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { dirname } from 'node:path';
import { once } from 'node:events';

/**
 * Writes the pieces of a text to `path` (UTF-8) in order, each as it is made, creating the folder; the
 * pieces are made one at a time, as the writes drain (docs/performance.md, "Memory").
 * @throws the file system's error, or what making a piece throws
 */
export async function writeTextFile(path: string, pieces: Iterable<string>): Promise<void> {
  await mkdir(dirname(path), { recursive: true });
  const stream = createWriteStream(path, { encoding: 'utf8' });
  const failed = once(stream, 'error').then(([err]) => Promise.reject(err as Error));
  failed.catch(() => undefined);
  try {
    for (const piece of pieces) {
      if (!stream.write(piece)) await Promise.race([once(stream, 'drain'), failed]);
    }
  } catch (err) {
    stream.destroy();
    throw err;
  }
  stream.end();
  await Promise.race([once(stream, 'finish'), failed]);
}
