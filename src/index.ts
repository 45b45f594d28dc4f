import { processDeps } from './action/deps.js';
import { isPostStep, POST_FLAG, runPost } from './action/post.js';
import { run } from './main.js';

// One bundle for both steps of action.yml: the main step marks the state, so the post step knows itself.
// The step ends when run() returns, even if an extra stopped at its time limit still holds a socket open.
const deps = processDeps();
if (isPostStep(deps.env)) {
  void runPost(deps).then(() => process.exit());
} else {
  deps.sink.saveState(POST_FLAG, 'true');
  void run(deps).then(() => process.exit());
}
