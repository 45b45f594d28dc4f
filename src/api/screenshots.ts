/** The one place that reads image URLs out of a test result (docs/api-contract.md, "Resources"). */
import type { ImageRef, TestResult } from './types.js';

/** One image of a test result. */
interface ResultImage {
  /** The full-size image (`defaultUrl` of `original` / `compareOriginal`); never empty. */
  url: string;
  /** The thumbnail (`defaultUrl` of `small` / `compareSmall`), when the service sent a non-empty one. */
  smallUrl?: string;
  /** Size of the full-size image in bytes, as the service reported it (0 when unknown). */
  bytes: number;
}

/** The images of a test result; each absent when the result has none (running, cancelled, visuals off). */
export interface ResultImages {
  screenshot?: ResultImage;
  comparison?: ResultImage;
}

function urlOf(image: Partial<ImageRef> | undefined | null): string | undefined {
  const url = image?.defaultUrl;
  return typeof url === 'string' && url !== '' ? url : undefined;
}

function imageOf(
  original: Partial<ImageRef> | undefined | null,
  small: Partial<ImageRef> | undefined | null,
): ResultImage | undefined {
  const url = urlOf(original);
  if (url === undefined) return undefined;
  const smallUrl = urlOf(small);
  return { url, ...(smallUrl !== undefined ? { smallUrl } : {}), bytes: original?.size ?? 0 };
}

/** `{screenshot?, comparison?}` of a test result (a non-empty full-size `defaultUrl` each). Pure. */
export function resultImages(result: Pick<TestResult, 'screenshot' | 'screenshotCompare'>): ResultImages {
  const screenshot = imageOf(result.screenshot?.original, result.screenshot?.small);
  const comparison = imageOf(
    result.screenshotCompare?.compareOriginal,
    result.screenshotCompare?.compareSmall,
  );
  return { ...(screenshot ? { screenshot } : {}), ...(comparison ? { comparison } : {}) };
}
