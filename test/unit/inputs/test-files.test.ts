import { describe, expect, it } from 'vitest';
import { parseTestFile, TestFileError } from '../../../src/inputs/test-files.js';

function nativeTest(value: unknown): string {
  return JSON.stringify({ name: 'Checkout', steps: [{ command: 'assign', target: '#q', value }] });
}

describe('parseTestFile: a native JSON test step value', () => {
  it('keeps text, writes numbers and booleans out, and reads no value as empty', () => {
    const values = ['shoes', 5, true, null, undefined].map(
      (value) => parseTestFile('tests/checkout.json', nativeTest(value))[0].steps[0].value,
    );
    expect(values).toEqual(['shoes', '5', 'true', '', '']);
  });

  it('refuses an object or an array, naming the file, the step and the expected form, not the value', () => {
    for (const [value, kind] of [
      [{ secret: 'hunter2' }, 'an object'],
      [['hunter2'], 'an array'],
    ] as const) {
      let error: unknown;
      try {
        parseTestFile('tests/checkout.json', nativeTest(value));
      } catch (e) {
        error = e;
      }
      expect(error).toBeInstanceOf(TestFileError);
      const message = (error as Error).message;
      expect(message).toContain('tests/checkout.json');
      expect(message).toContain(`step 1: "value" must be a string, a number or a boolean, not ${kind}`);
      expect(message).not.toContain('hunter2');
    }
  });
});
