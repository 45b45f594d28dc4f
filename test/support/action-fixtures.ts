/** Shared fixtures of the action tests: ids, and a workspace with test files and data files. */
import { mkdir, mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';

export const SUITE = '5a1b2c3d4e5f60718293a4b5';
export const TEST = '6b1b2c3d4e5f60718293a4b6';
export const ORG = '7c1b2c3d4e5f60718293a4b7';

export const SIDE_DOC = {
  id: 's',
  version: '2.0',
  name: 'Flows',
  url: 'https://example.test',
  tests: [
    { id: 'a', name: 'Home', commands: [{ command: 'open', target: '/', value: '' }] },
    {
      id: 'b',
      name: 'Search',
      commands: [
        { command: 'open', target: '/search', value: '' },
        { command: 'type', target: 'id=q', value: 'shoes' },
        { command: 'sendKeys', target: 'id=q', value: '${KEY_ENTER}' },
      ],
    },
  ],
  suites: [],
  plugins: [],
};

/** Creates a temporary workspace with `tests/` (good and bad test files) and CSV files. */
export async function makeWorkspace(prefix = 'gi-ws-'): Promise<string> {
  const workspace = await mkdtemp(path.join(tmpdir(), prefix));
  await mkdir(path.join(workspace, 'tests'));
  await mkdir(path.join(workspace, 'bad'));
  await writeFile(path.join(workspace, 'data.csv'), 'user,password\nalice,a\nbob,b\ncarol,c\n');
  await writeFile(path.join(workspace, 'empty.csv'), '');
  await writeFile(
    path.join(workspace, 'tests', 'login.json'),
    JSON.stringify({
      _id: 'x',
      name: 'Login',
      startUrl: 'https://example.test/',
      steps: [{ command: 'click', target: '#go', _id: 'y' }],
    }),
  );
  await writeFile(path.join(workspace, 'tests', 'flows.side'), JSON.stringify(SIDE_DOC));
  await writeFile(
    path.join(workspace, 'own-site.side'),
    JSON.stringify({
      ...SIDE_DOC,
      name: 'Own site',
      tests: [
        {
          id: 'c',
          name: 'Account',
          commands: [
            { command: 'open', target: '/login', value: '' },
            { command: 'open', target: 'https://example.test/account', value: '' },
          ],
        },
      ],
    }),
  );
  await writeFile(path.join(workspace, 'bad', 'broken.json'), '{ not json');
  await writeFile(path.join(workspace, 'bad', 'notes.txt'), 'hello');
  await writeFile(path.join(workspace, 'bad', 'nosteps.json'), JSON.stringify({ name: 'x' }));
  await writeFile(
    path.join(workspace, 'bad', 'drag.side'),
    JSON.stringify({
      ...SIDE_DOC,
      tests: [
        { id: 'a', name: 'Drag', commands: [{ command: 'dragAndDropToObject', target: 'a', value: 'b' }] },
      ],
    }),
  );
  return workspace;
}
