/**
 * The error that lists bad inputs (`src/inputs/schema.ts`): each problem names the input, the value as given
 * and the form expected, one line each; a long value is cut at 200 characters.
 */
import { describe, expect, it } from 'vitest';
import { InputError } from '../../../src/inputs/schema.js';

describe('InputError', () => {
  it('one problem is one sentence naming the input, the value and the expected form', () => {
    const err = new InputError([{ input: 'timeout', value: 'soon', expected: 'a number of minutes' }]);
    expect(err).toBeInstanceOf(Error);
    expect(err.name).toBe('InputError');
    expect(err.message).toBe('Input "timeout" has value "soon"; expected a number of minutes.');
    expect(err.problems).toHaveLength(1);
  });

  it('several problems are counted, then listed one per line', () => {
    const err = new InputError([
      { input: 'timeout', value: 'soon', expected: 'a number of minutes' },
      { input: 'browser', value: 'netscape', expected: 'one of chrome, firefox' },
    ]);
    expect(err.message).toBe(
      '2 inputs are not valid:\n' +
        '- Input "timeout" has value "soon"; expected a number of minutes.\n' +
        '- Input "browser" has value "netscape"; expected one of chrome, firefox.',
    );
  });

  it('a value over 200 characters is shown cut, with an ellipsis; one of 200 is shown whole', () => {
    const long = new InputError([{ input: 'suite-ids', value: 'x'.repeat(201), expected: 'ids' }]);
    expect(long.message).toBe(`Input "suite-ids" has value "${'x'.repeat(200)}…"; expected ids.`);
    const exact = new InputError([{ input: 'suite-ids', value: 'y'.repeat(200), expected: 'ids' }]);
    expect(exact.message).toBe(`Input "suite-ids" has value "${'y'.repeat(200)}"; expected ids.`);
  });
});
