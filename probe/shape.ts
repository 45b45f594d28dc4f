/**
 * Shapes of answers with every value redacted: field names and JSON types only, merged over the elements of
 * arrays, and the differences between two shapes named by path.
 */

/** A JSON type as the probe records it. */
export type JsonType = 'string' | 'number' | 'boolean' | 'null' | 'object' | 'array';

/**
 * The shape of a JSON value: its types (more than one when elements of an array differ), the fields of its
 * object form and the shape of its array elements (absent when every array seen was empty).
 */
export interface Shape {
  types: JsonType[];
  fields?: Record<string, Shape>;
  /** For an object whose keys are data (a map): the merged shape of its values; its keys are not kept. */
  values?: Shape;
  items?: Shape;
}

/**
 * Fields whose object keys are data, not field names: counts by month, custom variables, extractions,
 * data source rows. Any object with a key that is not an identifier is a map too (e.g. regions).
 */
const MAP_FIELDS = new Set(['testRuns', 'variables', 'extractions', 'data']);
const IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$]*$/;

function typeOf(value: unknown): JsonType {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  const t = typeof value;
  if (t === 'string' || t === 'number' || t === 'boolean') return t;
  return 'object';
}

/**
 * The shape of a parsed JSON value; `key` is the field that holds it. No value is kept: only field names
 * and types (the keys of maps are dropped too).
 */
export function shapeOf(value: unknown, key = ''): Shape {
  const type = typeOf(value);
  const shape: Shape = { types: [type] };
  if (type === 'object') {
    const entries = Object.entries(value as Record<string, unknown>);
    if (MAP_FIELDS.has(key) || entries.some(([name]) => !IDENTIFIER.test(name))) {
      const values = entries.map(([, v]) => shapeOf(v));
      if (values.length > 0) shape.values = values.reduce(mergeShapes);
    } else {
      shape.fields = {};
      for (const [name, field] of entries) shape.fields[name] = shapeOf(field, name);
    }
  }
  if (type === 'array') {
    const items = (value as unknown[]).map((item) => shapeOf(item, key));
    if (items.length > 0) shape.items = items.reduce(mergeShapes);
  }
  return shape;
}

/**
 * Merges two shapes: the union of types, of fields (a field missing on one side stays as the other side
 * has it) and of array elements.
 */
export function mergeShapes(a: Shape, b: Shape): Shape {
  const out: Shape = { types: [...new Set([...a.types, ...b.types])].sort() };
  if (a.fields || b.fields) {
    out.fields = {};
    for (const name of new Set([...Object.keys(a.fields ?? {}), ...Object.keys(b.fields ?? {})])) {
      const x = a.fields?.[name];
      const y = b.fields?.[name];
      out.fields[name] = x && y ? mergeShapes(x, y) : (x ?? y)!;
    }
  }
  if (a.values || b.values)
    out.values = a.values && b.values ? mergeShapes(a.values, b.values) : (a.values ?? b.values);
  if (a.items || b.items)
    out.items = a.items && b.items ? mergeShapes(a.items, b.items) : (a.items ?? b.items);
  return out;
}

/**
 * The differences between a saved shape and a new one, each naming the path (`data.steps[].condition`) and
 * both sides. Array elements are compared only when both sides saw some (an empty list says nothing).
 */
export function diffShapes(saved: Shape, now: Shape, path: string): string[] {
  const out: string[] = [];
  const a = saved.types.join('|');
  const b = now.types.join('|');
  if (a !== b) out.push(`${path}: type ${a} in the saved report, ${b} now`);
  if (saved.fields && now.fields) {
    for (const name of Object.keys(saved.fields)) {
      if (!(name in now.fields)) out.push(`${path}.${name}: in the saved report, missing now`);
      else out.push(...diffShapes(saved.fields[name], now.fields[name], `${path}.${name}`));
    }
    for (const name of Object.keys(now.fields)) {
      if (!(name in saved.fields)) out.push(`${path}.${name}: missing in the saved report, present now`);
    }
  }
  if (saved.values && now.values) out.push(...diffShapes(saved.values, now.values, `${path}{}`));
  if (saved.items && now.items) out.push(...diffShapes(saved.items, now.items, `${path}[]`));
  return out;
}
