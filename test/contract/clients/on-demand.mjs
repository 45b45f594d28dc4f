#!/usr/bin/env node
/* global fetch, AbortSignal */
// An on-demand run as the official CLI's `execute-on-demand --immediate` makes it: POST a local JSON test
// file to the organization's on-demand endpoint and print what the service answers. The request has a
// timeout (REQUEST_TIMEOUT_S, default 60), as HTTP clients written for the service set one.
// Usage: on-demand.mjs BASE_URL API_KEY ORGANIZATION_ID FILE
// Prints one JSON line {_id, passing, executionTime, dateExecutionStarted}; exit 0, or 2 on an error.
import { readFileSync } from 'node:fs';

const [base, apiKey, org, file] = process.argv.slice(2);
const timeoutS = Number(process.env.REQUEST_TIMEOUT_S ?? 60);
try {
  const test = JSON.parse(readFileSync(file, 'utf8'));
  const res = await fetch(`${base}/organizations/${org}/on-demand/execute/?apiKey=${apiKey}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(test),
    signal: AbortSignal.timeout(timeoutS * 1000),
  });
  const answer = await res.json();
  if (answer.code !== 'SUCCESS') throw new Error(`${answer.code}: ${answer.message}`);
  const { _id, passing, executionTime, dateExecutionStarted } = answer.data;
  console.log(JSON.stringify({ _id, passing, executionTime, dateExecutionStarted }));
} catch (error) {
  console.error(`on-demand execute failed: ${error.message}`);
  process.exit(2);
}
