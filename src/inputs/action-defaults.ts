/**
 * The defaults of `action.yml`. The runner applies them to inputs a workflow leaves out; the action applies
 * them to an input left out too (outside a runner nothing else does), and to one given empty (`wait: ${{
 * inputs.wait }}` with `inputs.wait` unset) but where empty means something (docs/api-contract.md, "Runtime").
 * Generated from action.yml by `npm run docs`: edit action.yml, not this file.
 */

/** action.yml's defaults by input name; inputs without one, or with an expression for one, are left out. */
export const ACTION_DEFAULTS: Readonly<Record<string, string>> = {
  'api-base-url': 'https://api.ghostinspector.com/v1',
  wait: 'true',
  'timeout-minutes': '30',
  'cancel-on-timeout': 'true',
  'cancel-result-ids': 'false',
  'fail-on-screenshot-compare': 'false',
  'fail-on-timeout': 'true',
  'fail-on-empty': 'true',
  'retry-failed': '0',
  'fail-fast': 'false',
  notify: 'auto',
  'junit-path': 'ghost-inspector-junit.xml',
  summary: 'true',
  'summary-title': 'Ghost Inspector',
  annotations: 'true',
  'pr-comment': 'false',
  'failure-issue': 'false',
  'failure-issue-labels': 'ghost-inspector',
  'failure-issue-events': 'schedule, workflow_dispatch',
  'failure-issue-reopen-days': '7',
  screenshots: 'failed',
  'artifacts-dir': 'ghost-inspector-screenshots',
  'results-path': 'ghost-inspector-results.json',
  'tunnel-provider': 'cloudflared',
  'tunnel-url-variable': 'ngrokUrl',
};
