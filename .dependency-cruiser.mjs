/**
 * `npm run lint` checks the import graph of src/, emulator/ and bench/ with dependency-cruiser: no cycles
 * (type-only imports count), and arrows between rooms point down (docs/architecture.md).
 */
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
    {
      name: 'reports-do-not-control-runs',
      severity: 'error',
      comment: 'report/ and artifacts/ render and publish; they do not reach up into action/.',
      from: { path: '^src/(report|artifacts)/' },
      to: { path: '^src/action/' },
    },
    {
      name: 'common-is-the-bottom-layer',
      severity: 'error',
      comment: 'src/common/ (log sink, messageOf) is used by every layer, so it imports none of them.',
      from: { path: '^src/common/' },
      to: { path: '^src/', pathNot: '^src/common/' },
    },
    {
      name: 'action-log-does-not-import-artifacts',
      severity: 'error',
      from: { path: '^src/action/log\\.ts$' },
      to: { path: '^src/artifacts/' },
    },
  ],
  options: {
    includeOnly: '^(src|emulator|bench)/',
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    doNotFollow: { path: 'node_modules' },
  },
};
