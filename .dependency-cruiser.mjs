/**
 * `npm run lint` checks the import graph of src/, emulator/, demo/ and bench/ with dependency-cruiser: no
 * cycles (type-only imports count), arrows between rooms point down (docs/architecture.md, "Floors"), and the
 * emulator (the API double) does not import the demo that uses it.
 */

/** The rooms of src/, top floor first: a room imports only rooms after it in this list. */
const SRC_FLOORS = [
  'index.ts',
  'main.ts',
  'action/',
  'artifacts/',
  'report/',
  'run/',
  'tunnel/',
  'inputs/',
  'github.ts',
  'api/',
  'common/',
];

/** The rooms inside src/run/, top floor first. */
const RUN_FLOORS = [
  'engine.ts',
  'follow/',
  'trigger/',
  'plan/',
  'stop/',
  'read/',
  'context.ts',
  'stopper.ts',
  'book.ts',
  'kinds.ts',
  'progress.ts',
  'events.ts',
  'outcome/',
  'types.ts',
];

/** A path pattern for one room of `base`: a folder and all below it, or one file. */
const roomPath = (base, room) => `^${base}${room.replace(/\./g, '\\.')}${room.endsWith('/') ? '' : '$'}`;

/** One rule per floor of `base`: none of its files imports a room on a floor above it. */
function pointDown(base, floors) {
  return floors.slice(1).map((room, floor) => ({
    name: `${base}${room}-imports-no-room-above`,
    severity: 'error',
    comment: `An arrow back up: ${base}${room} may import only the rooms below it (docs/architecture.md, "Floors"). Move what both need down.`,
    from: { path: roomPath(base, room) },
    to: { path: floors.slice(0, floor + 1).map((above) => roomPath(base, above)) },
  }));
}

/** @type {import('dependency-cruiser').IConfiguration} */
export default {
  forbidden: [
    {
      name: 'no-circular',
      severity: 'error',
      comment: 'Modules that import each other, directly or through others: move what both need lower down.',
      from: {},
      to: { circular: true },
    },
    ...pointDown('src/', SRC_FLOORS),
    ...pointDown('src/run/', RUN_FLOORS),
    {
      name: 'action-log-does-not-import-artifacts',
      severity: 'error',
      from: { path: '^src/action/log\\.ts$' },
      to: { path: '^src/artifacts/' },
    },
    {
      name: 'emulator-does-not-import-demo',
      severity: 'error',
      comment:
        'The emulator is the API double only: the demo (its Chromium executor, site and seed) uses it, never the reverse. Hand what the emulator needs in through its options (e.g. `executor`, `routes`, `seed`).',
      from: { path: '^emulator/' },
      to: { path: '^demo/' },
    },
  ],
  options: {
    includeOnly: '^(src|emulator|demo|bench)/',
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    doNotFollow: { path: 'node_modules' },
  },
};
