/** The rule for files an input names: they are read only when their real path lies inside the workspace. */
import { realpath } from 'node:fs/promises';
import path from 'node:path';

/**
 * The real path of `file` (relative to `workspace`, symbolic links resolved) when it lies inside the real path
 * of `workspace`, else null: a `../` or a link out of the workspace would send an outside file to the service.
 * @throws the file-system error when `file` or `workspace` cannot be resolved (`ENOENT`, `EACCES`, …)
 */
export async function realPathInside(workspace: string, file: string): Promise<string | null> {
  const [root, real] = await Promise.all([realpath(workspace), realpath(path.resolve(workspace, file))]);
  const inside = path.relative(root, real);
  const outside =
    inside === '' || inside === '..' || inside.startsWith(`..${path.sep}`) || path.isAbsolute(inside);
  return outside ? null : real;
}
