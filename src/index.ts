import { processDeps } from './action/deps.js';
import { run } from './main.js';

// The step ends when run() returns, even if an extra stopped at its time limit still holds a socket open.
void run(processDeps()).then(() => process.exit());
