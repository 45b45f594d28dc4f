/** Start URLs that begin with a custom variable (`{{ngrokUrl}}/checkout`), filled in by the service. */

/** `{{name}}` at the start of a start URL, the rest of it after the name. */
const VARIABLE_URL = /^\{\{([A-Za-z_][A-Za-z0-9_]*)\}\}(.*)$/s;

/** True for a start URL that begins with a `{{name}}` variable followed by a path, query or nothing. */
export function isVariableStartUrl(value: string): boolean {
  const rest = VARIABLE_URL.exec(value)?.[2];
  return rest !== undefined && /^([/?#]\S*)?$/.test(rest);
}

/** The variable a start URL begins with (`{{name}}…`), else null. */
export function startUrlVariable(value: string): string | null {
  return VARIABLE_URL.exec(value)?.[1] ?? null;
}
