/** References between records: an id string or a populated `{_id, name, …}` object, by endpoint. */

/** A reference sent as an id string or as a populated object. */
export type RefOrId<T extends { _id: string }> = string | T;

/** The id of a reference in either form; null when absent or empty. */
export function refId(ref: string | { _id?: unknown } | null | undefined): string | null {
  if (typeof ref === 'string') return ref === '' ? null : ref;
  if (ref && typeof ref === 'object' && typeof ref._id === 'string' && ref._id !== '') return ref._id;
  return null;
}

/** The name of a populated reference; undefined for an id string or when absent. */
export function refName(ref: string | { name?: unknown } | null | undefined): string | undefined {
  return ref && typeof ref === 'object' && typeof ref.name === 'string' ? ref.name : undefined;
}
