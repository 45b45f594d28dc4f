#!/usr/bin/env node
/* global fetch */
// A test-import script: imports a test file exported from the Ghost Inspector web app into a suite, and
// can export a test back. It judges each call by the envelope's `code`, as the service answers errors with
// HTTP 200.
// Usage: import-test.mjs import BASE_URL API_KEY SUITE_ID FILE   prints the new test's id
//        import-test.mjs export BASE_URL API_KEY TEST_ID         prints the exported JSON document
// Exit 0, or 2 with the service's message on stderr.
import { readFileSync } from 'node:fs';

const [command, base, apiKey, id, file] = process.argv.slice(2);
try {
  if (command === 'import') {
    const res = await fetch(`${base}/suites/${id}/import-test/json/?apiKey=${apiKey}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: readFileSync(file, 'utf8'),
    });
    const answer = await res.json();
    if (answer.code !== 'SUCCESS') throw new Error(`${answer.code}: ${answer.message}`);
    console.log(answer.data._id);
  } else if (command === 'export') {
    const res = await fetch(`${base}/tests/${id}/export/json/?apiKey=${apiKey}`);
    const doc = await res.json();
    if (doc.code === 'ERROR') throw new Error(`${doc.errorType}: ${doc.message}`);
    console.log(JSON.stringify(doc, null, 2));
  } else {
    throw new Error(`unknown command ${command}: import or export`);
  }
} catch (error) {
  console.error(`import-test ${command} failed: ${error.message}`);
  process.exit(2);
}
