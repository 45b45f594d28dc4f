import { processDeps } from './action/deps.js';
import { isPostStep, POST_FLAG, runPost } from './action/post.js';
import { run } from './main.js';

// One bundle for both steps of action.yml: the main step marks the state, so the post step knows itself.
const deps = processDeps();
if (isPostStep(deps.env)) {
  void runPost(deps);
} else {
  deps.sink.saveState(POST_FLAG, 'true');
  void run(deps);
}
