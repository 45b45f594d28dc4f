import { setFlagsFromString } from 'node:v8';
import { processDeps } from './action/deps.js';
import { exitCodeAfterRun, guardProcess, StepProgress } from './action/boundary.js';
import { isPostStep, POST_FLAG, POST_STEP_LIMIT_MS, runPost } from './action/post.js';
import { run } from './main.js';

// The heap stays near what the step holds (docs/performance.md, "Memory"). Node 24's V8 doubles the young
// generation under a burst of answers up to two 64-MiB halves and keeps them; it lets the old generation
// fill with garbage up to several times what is live before collecting it. Both flags are read each time
// the heap would grow (`node --v8-options`), so setting them at the start is enough.
setFlagsFromString('--semi-space-growth-factor=1');
setFlagsFromString('--heap-growing-percent=20');

// One bundle for both steps of action.yml: the main step marks the state, so the post step knows itself.
// The step ends when run() returns, even if an extra stopped at its time limit still holds a socket open;
// it exits 0 only with a verdict written that passed. Every other end fails it (docs/architecture.md).
const deps = processDeps();
if (isPostStep(deps.env)) {
  // The post step never fails the step; it ends within its limit whatever it waits on.
  setTimeout(() => {
    deps.sink.warning(`Post step: stopped at its time limit of ${POST_STEP_LIMIT_MS / 1000} s.`);
    process.exit();
  }, POST_STEP_LIMIT_MS).unref();
  void runPost(deps).then(() => process.exit());
} else {
  deps.sink.saveState(POST_FLAG, 'true');
  const progress = new StepProgress();
  guardProcess(process, { sink: deps.sink, progress, exit: () => process.exit(1) });
  void run({ ...deps, progress }).then(() =>
    process.exit(exitCodeAfterRun(progress, deps.sink, process.exitCode)),
  );
}
