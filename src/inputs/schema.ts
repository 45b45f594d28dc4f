/**
 * The inputs of `action.yml` as the action knows them: the typed result (`ActionInputs`),
 * the forms ids and values must take, and the error that lists bad inputs. No parsing, no I/O.
 */
import { EXECUTE_PARAMETER_NAMES } from '../api/execute-params.js';
import type { ExecuteOptions } from '../api/types.js';
import type { RepoTest } from './test-files.js';

export interface InputProblem {
  input: string;
  /** The value as given, URL credentials redacted; `***` for secrets. */
  value: string;
  /** What was expected, e.g. `an integer from 0 to 300000 (milliseconds)`. */
  expected: string;
}

/** Bad inputs: `problems` lists each; the message has one line per problem. */
export class InputError extends Error {
  readonly problems: InputProblem[];
  constructor(problems: InputProblem[]) {
    super(
      problems.length === 1
        ? describeProblem(problems[0])
        : `${problems.length} inputs are not valid:\n${problems.map((p) => `- ${describeProblem(p)}`).join('\n')}`,
    );
    this.name = 'InputError';
    this.problems = problems;
  }
}

function describeProblem(p: InputProblem): string {
  const shown = p.value.length > 200 ? `${p.value.slice(0, 200)}…` : p.value;
  return `Input "${p.input}" has value ${JSON.stringify(shown)}; expected ${p.expected}.`;
}

/** One id of `result-ids`: its kind when a prefix named it, else null (looked up). */
export interface ResultRef {
  type: 'suite' | 'test' | null;
  id: string;
}

/**
 * Everything the action was asked to do, validated. Paths are absolute. A field is the input of its name in
 * camel case, as action.yml describes it; comments say only what action.yml does not.
 */
export interface ActionInputs {
  apiKey: string;
  apiBaseUrl: string;
  organizationId: string | null;

  suiteIds: string[];
  testIds: string[];
  folderIds: string[];
  testFilePatterns: string[];
  repoTests: RepoTest[];
  resultIds: ResultRef[];

  /** Execute parameters the user set, in the service's names; start URLs are separate executes. */
  execute: Omit<ExecuteOptions, 'startUrl' | 'immediate'>;
  /** Start URLs (each a separate execute); empty: the suite's or test's own. */
  startUrls: string[];
  /** Names of the private variables (values are in `execute.variables` and in `secrets`). */
  privateVariableNames: string[];
  /** Absolute path of the data file, when set (its content is in `execute.dataFile`). */
  dataFilePath: string | null;

  wait: boolean;
  /** Overall deadline in milliseconds. */
  timeoutMs: number;
  cancelOnTimeout: boolean;
  cancelResultIds: boolean;
  failOnScreenshotCompare: boolean;
  failOnTimeout: boolean;
  failOnEmpty: boolean;
  retryFailed: number;
  failFast: boolean;
  /** How ended test runs are noticed (docs/architecture.md, "Push"). */
  notify: 'poll' | 'push' | 'auto';
  /** Public base URL of the webhooks' listener (its port is the one listened on); null when empty. */
  notifyUrl: string | null;

  /** Absolute path, or null when `junit-path` is empty. */
  junitPath: string | null;
  summary: boolean;
  summaryTitle: string;
  annotations: boolean;
  prComment: boolean;
  commentKey: string;
  failureIssue: boolean;
  failureIssueLabels: string[];
  failureIssueEvents: string[];
  failureIssueReopenDays: number;
  failureIssueAssignees: string[];
  /** Empty when none is available. */
  githubToken: string;
  screenshots: 'failed' | 'all' | 'none';
  artifactName: string;
  /** 1 to 90, or null for the repository setting. */
  artifactRetentionDays: number | null;
  artifactsDir: string;
  resultsPath: string;

  /** Null when `tunnel` is empty. */
  tunnel: TunnelInputs | null;

  workspace: string;
  /** Every secret value to mask and redact (API key, passwords, tokens, private variables, URL user-info). */
  secrets: string[];
  /** Warnings to log before the run (e.g. secrets too short to be removed from free text). */
  warnings: string[];
  /** Notices to log before the run (e.g. recorder `open` targets rebased onto `start-url`). */
  notices: string[];
}

/** Inputs whose value is secret (shown as `***` in errors). */
export const SECRET_INPUTS = new Set([
  'api-key',
  'http-auth-password',
  'private-variables',
  'github-token',
  'ngrok-authtoken',
]);

/** The service's ids are 24 hex characters; other instances (a local emulator) may use up to 64 of these. */
export const ID_PATTERN = /^[A-Za-z0-9][A-Za-z0-9_-]{0,63}$/;
export const ID_FORM = 'letters, digits, - and _ (e.g. 5a1b2c3d4e5f60718293a4b5)';
export const VARIABLE_NAME_PATTERN = /^[A-Za-z_][A-Za-z0-9_]*$/;

/**
 * The custom variable every execute of one step carries, unique to the step: a run found after a lost answer
 * is this step's only when its `variables` show it (docs/api-contract.md, "Execute parameters";
 * docs/architecture.md). A value the user gives it is replaced, with a warning.
 */
export const STEP_MARKER = 'GI_ACTION_STEP';

/** Names a custom variable may not take: execute parameters, which would change the run's settings. */
export const RESERVED_VARIABLE_NAMES: ReadonlySet<string> = new Set([
  ...EXECUTE_PARAMETER_NAMES,
  'count',
  'offset',
  'includeImports',
]);

export const TUNNEL_PROVIDERS = ['ngrok', 'cloudflared'] as const;
export type TunnelProviderName = (typeof TUNNEL_PROVIDERS)[number];

export interface TunnelInputs {
  /** The local address to expose, an http or https URL (e.g. `http://localhost:3000`). */
  address: string;
  provider: TunnelProviderName;
  /** The ngrok authtoken (secret); empty for cloudflared. */
  authtoken: string;
  /** The custom variable that receives the public URL on every execute. */
  urlVariable: string;
  /** Host header sent to the app: empty (the public host), `rewrite` (the local address's host) or a host. */
  hostHeader: string;
}
