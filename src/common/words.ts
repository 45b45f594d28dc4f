/** Words every room writes the same way. */

/** `1 test`, `2 tests`; `many` for an irregular plural. */
export function plural(count: number, one: string, many = `${one}s`): string {
  return `${count} ${count === 1 ? one : many}`;
}
