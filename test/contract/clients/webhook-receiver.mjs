#!/usr/bin/env node
// A receiver for Ghost Inspector webhooks, written for the live service's documented sample body
// {"type": "result", "data": {...the test result, with "organization" and "suite" as {_id, name}}}.
// It refuses (HTTP 400) any body that is not that envelope, and prints one line per POST:
//   accepted RESULT_ID passing=BOOL suite=SUITE_NAME     or     rejected REASON
// Usage: webhook-receiver.mjs   (prints "listening URL" first; stops on SIGTERM)
import { createServer } from 'node:http';

function problem(body) {
  if (!body || typeof body !== 'object') return 'the body is not a JSON object';
  if (body.type !== 'result') return `type is ${JSON.stringify(body.type)}, not "result"`;
  const data = body.data;
  if (!data || typeof data._id !== 'string') return 'data is not a test result';
  if (!data.suite || typeof data.suite !== 'object' || typeof data.suite.name !== 'string')
    return 'data.suite is not {_id, name}';
  if (!data.organization || typeof data.organization.name !== 'string')
    return 'data.organization is not {_id, name}';
  return null;
}

const server = createServer((req, res) => {
  let text = '';
  req.setEncoding('utf8');
  req.on('data', (chunk) => (text += chunk));
  req.on('end', () => {
    let body;
    try {
      body = JSON.parse(text);
    } catch {
      body = undefined;
    }
    const reason = req.method !== 'POST' ? `method ${req.method}` : problem(body);
    if (reason) {
      console.log(`rejected ${reason}`);
      res.writeHead(400).end(reason);
      return;
    }
    const { _id, passing, suite } = body.data;
    console.log(`accepted ${_id} passing=${passing} suite=${suite.name}`);
    res.writeHead(200).end('ok');
  });
});
server.listen(0, '127.0.0.1', () => console.log(`listening http://127.0.0.1:${server.address().port}/hook`));
process.on('SIGTERM', () => server.close(() => process.exit(0)));
