/**
 * Inputs the reports show as given (`summary-title`, `comment-key`, `failure-issue-labels`) with a secret in
 * them: the secret is `***` in the job summary, the failure issue's title, body and labels, and the log. The
 * action runs in-process (`run(deps)`) on one virtual clock with its emulator, against the fake GitHub REST
 * API (`support/fakes/github.ts`).
 */
import { expect, it } from 'vitest';
import { FakeGitHub, TOKEN } from '../../support/fakes/github.js';
import { findSecrets, leakForms, secretInputs, secretsFor } from '../../support/reliability.js';
import { useWorlds } from '../../support/world.js';

const secrets = secretsFor('shown-inputs');
const { open, later, newWorkspace } = useWorlds();

it('a secret in summary-title, comment-key or failure-issue-labels is *** in every report and the failure issue', async () => {
  const github = new FakeGitHub();
  await github.start();
  later(() => github.stop());
  const world = await open({ secrets, github });
  const workspace = await newWorkspace();
  const run = await world.run({
    workspace,
    inputs: {
      ...secretInputs(secrets),
      'api-base-url': world.emulator.baseUrl,
      'suite-ids': 'suite-red',
      screenshots: 'none',
      'summary-title': `Nightly ${secrets.apiKey} shop`,
      'comment-key': `key-${secrets.privateValue}`,
      'failure-issue': 'true',
      'failure-issue-labels': `qa, ${secrets.httpAuthPassword}`,
      'github-token': TOKEN,
    },
    env: {
      GITHUB_REPOSITORY: 'acme/shop',
      GITHUB_WORKFLOW: 'Nightly',
      GITHUB_JOB: 'regression',
      GITHUB_EVENT_NAME: 'schedule',
      GITHUB_REF: 'refs/heads/main',
      GITHUB_RUN_ID: '401',
      GITHUB_RUN_ATTEMPT: '1',
      GITHUB_API_URL: github.baseUrl,
    },
  });
  expect(run.code, run.stdout).toBe(1);
  expect(run.summary).toContain('Nightly &#42;&#42;&#42; shop');
  expect(github.issues).toHaveLength(1);
  const issue = github.issues[0]!;
  expect(issue.title).toBe('Nightly *** shop failing');
  expect(issue.labels.map((l) => l.name).sort()).toEqual(['***', 'qa']);
  const issueText = JSON.stringify(issue);
  for (const secret of Object.values(secrets)) {
    for (const form of leakForms(secret)) expect(issueText, form).not.toContain(form);
  }
  expect(findSecrets(run, workspace, secrets)).toEqual([]);
});
