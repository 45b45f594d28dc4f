/**
 * Small helpers shared by the emulator's modules: identifiers, dates, errors, a seeded PRNG and sleeping.
 */

/** The epoch date records show when they never ran, or were duplicated or imported (docs/api-contract.md, "Conventions" 4). */
export const EPOCH = '1970-01-01T00:00:00.000Z';

/** ISO 8601 UTC with milliseconds for an epoch-ms time. */
export function iso(ms: number): string {
  return new Date(ms).toISOString();
}

/**
 * An error a handler throws to answer with an `ERROR` envelope (docs/api-contract.md, "Resources"):
 * `{code: "ERROR", errorType, message}`, sent with HTTP 200 like the real service.
 */
export class ApiError extends Error {
  constructor(
    readonly errorType: 'AUTHENTICATION_ERROR' | 'VALIDATION_ERROR' | 'TIMEOUT_ERROR' | 'SERVER_ERROR',
    message: string,
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

/**
 * The service's own messages for the errors its docs show, one per error type ("Errors" of the service's 2020
 * API docs, copied in `bagpyp/ghostInspectorAPI` `ghostInspector.postman_collection.json`; the docs' current
 * "Error Responses" page shows the same texts). A VALIDATION_ERROR's text depends on the request: the docs'
 * example is "Test not found".
 */
export const SERVICE_ERROR_MESSAGES = {
  AUTHENTICATION_ERROR: 'User ID is invalid',
  TIMEOUT_ERROR: 'Your execution is still in progress. Our API reached its timeout.',
  SERVER_ERROR: 'The Ghost Inspector service is encountering issues.',
} as const;

/** Throws a VALIDATION_ERROR with `message`. */
export function invalid(message: string): never {
  throw new ApiError('VALIDATION_ERROR', message);
}

/**
 * Mulberry32: a small seeded PRNG returning floats in [0, 1). Deterministic for a given seed, used by fault
 * injection and the simulated executor.
 */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * Resolves after `ms` milliseconds, or rejects with an `AbortError` when `signal` aborts first.
 * A non-positive `ms` resolves on the next macrotask.
 */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) {
      reject(abortError());
      return;
    }
    const timer = setTimeout(
      () => {
        signal?.removeEventListener('abort', onAbort);
        resolve();
      },
      Math.max(0, ms),
    );
    const onAbort = () => {
      clearTimeout(timer);
      reject(abortError());
    };
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

/** The error an aborted wait rejects with (`name` AbortError). */
export function abortError(): Error {
  const error = new Error('aborted');
  error.name = 'AbortError';
  return error;
}

/** `promise`'s outcome, or an AbortError as soon as `signal` aborts (the promise is then left to itself). */
export function untilAborted<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) return Promise.reject(abortError());
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(abortError());
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
  });
}

/** Deep copy of plain JSON data. */
export function clone<T>(value: T): T {
  return structuredClone(value);
}

/** A counting semaphore: at most `limit` holders at once (`limit` 0 or less = unlimited). */
export class Semaphore {
  private active = 0;
  private readonly waiting: Array<() => void> = [];
  constructor(private readonly limit: number) {}

  /**
   * Waits for a slot; returns the function that frees it. When `signal` aborts while waiting, the waiter
   * leaves the queue and the promise rejects with an AbortError.
   */
  async acquire(signal?: AbortSignal): Promise<() => void> {
    if (signal?.aborted) throw abortError();
    if (this.limit > 0 && this.active >= this.limit) {
      // The releasing holder hands its slot over: `active` stays the same.
      await new Promise<void>((resolve, reject) => {
        const grant = () => {
          signal?.removeEventListener('abort', onAbort);
          resolve();
        };
        const onAbort = () => {
          const i = this.waiting.indexOf(grant);
          if (i >= 0) this.waiting.splice(i, 1);
          reject(abortError());
        };
        signal?.addEventListener('abort', onAbort, { once: true });
        this.waiting.push(grant);
      });
    } else {
      this.active++;
    }
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const next = this.waiting.shift();
      if (next) next();
      else this.active--;
    };
  }
}

/**
 * Replaces `{{name}}` by the variable's value; unknown names are left as they are, or become "" with
 * `unknown: 'empty'` (on-demand runs).
 */
export function substitute(
  text: string,
  variables: Record<string, string>,
  unknown: 'keep' | 'empty' = 'keep',
): string {
  return text.replace(/\{\{\s*([^{}\s]+)\s*\}\}/g, (whole, name: string) =>
    Object.hasOwn(variables, name) ? (variables[name] ?? '') : unknown === 'keep' ? whole : '',
  );
}

/**
 * A body value stored in a string field (a step value, a variable value), converted as JavaScript's
 * `String()` does: numbers and booleans written out. What the service does with an object or an array there
 * is not known (neither the contract nor the docs/api-contract.md say), so the emulator keeps this plain conversion
 * rather than guess a refusal. One place for that choice: the type-aware lint flags `String()` of a value
 * that may be an object.
 */
export function fieldText(value: unknown): string {
  return String(value);
}

/**
 * What a read shows for the value of a private suite variable. The service masks them (a public Terraform
 * provider reads them back masked); the mask's form is not public: guessed (emulator/DEVIATIONS.md).
 */
export const PRIVATE_VALUE_MASK = '********';

/** Suite variables as a read shows them: private values masked. */
export function maskedVariables<T extends { value: string; private: boolean }>(variables: T[]): T[] {
  return variables.map((v) => (v.private ? { ...v, value: PRIVATE_VALUE_MASK } : v));
}

/**
 * Variables of an update with the stored values kept where a private variable comes back masked (a suite
 * read and sent back must not overwrite its secrets with the mask). Guessed.
 */
export function keepMaskedValues<T extends { name: string; value: string; private: boolean }>(
  next: T[],
  stored: T[],
): T[] {
  return next.map((v) => {
    const before = stored.find((s) => s.name === v.name && s.private);
    return before && v.value === PRIVATE_VALUE_MASK ? { ...v, value: before.value, private: true } : v;
  });
}
