/**
 * Zip archives for the suite export endpoints (docs/api-contract.md, "Test definitions (repository test files)": `export/json/` and
 * `export/recorder-html/` answer a zip archive of one file per test), built with fflate.
 */
import { strToU8, unzipSync, zipSync, type Zippable } from 'fflate';

/** One file of an archive: a path inside the zip and its content (strings are written as UTF-8). */
export interface ZipEntry {
  name: string;
  content: string | Uint8Array;
}

/** A file name safe inside an archive: forward slashes, no leading slash, no `..` or empty segments. */
function safeName(name: string): string {
  const parts = name
    .replace(/\\/g, '/')
    .split('/')
    .filter((p) => p !== '' && p !== '.' && p !== '..');
  return parts.join('/') || 'file';
}

/**
 * Builds a zip archive (deflate) of `files`, in order. Names are made safe (see above); a name already
 * used gets ` (2)`, ` (3)`... before its extension so no file is lost.
 */
export function zipFiles(files: ZipEntry[]): Buffer {
  const entries: Zippable = {};
  for (const file of files) {
    const name = safeName(file.name);
    let unique = name;
    for (let n = 2; Object.hasOwn(entries, unique); n++) {
      const dot = name.lastIndexOf('.');
      unique = dot > 0 ? `${name.slice(0, dot)} (${n})${name.slice(dot)}` : `${name} (${n})`;
    }
    entries[unique] = typeof file.content === 'string' ? strToU8(file.content) : file.content;
  }
  return Buffer.from(zipSync(entries, { level: 6 }));
}

/** Reads a zip archive into its files (name to bytes). Throws when `zip` is not a valid archive. */
export function unzipFiles(zip: Uint8Array): Record<string, Uint8Array> {
  return unzipSync(zip);
}
