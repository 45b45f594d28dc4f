import { processDeps } from './action/deps.js';
import { run } from './main.js';

void run(processDeps());
