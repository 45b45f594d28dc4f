/** Pure parsing of the execute parameters the user set (docs/api-contract.md, "Execute parameters"). */
import { REGIONS } from '../api/types.js';
import { isHttpUrl, type InputReader } from './parse.js';
import { BROWSER_PATTERN, VIEWPORT_PATTERN, type ActionInputs } from './schema.js';
import { parseVariables } from './variables.js';

/** Browsers, regions, viewports and the user agent (the dimensions a run varies over). */
function parseBrowsing(r: InputReader, execute: ActionInputs['execute']): void {
  const browsers = r.list('browser');
  for (const b of browsers) {
    if (!BROWSER_PATTERN.test(b))
      r.fail('browser', b, 'chrome, chrome-<version>, firefox or firefox-<version>');
  }
  if (browsers.length > 0) execute.browser = browsers;
  const regions = r.list('region');
  for (const region of regions) {
    if (!(REGIONS as readonly string[]).includes(region)) {
      r.fail('region', region, `one of ${REGIONS.join(', ')}`);
    }
  }
  if (regions.length > 0) execute.region = regions;
  const viewports = r.list('viewport');
  for (const v of viewports) {
    if (!VIEWPORT_PATTERN.test(v)) r.fail('viewport', v, '<width>x<height> in pixels, e.g. 1280x800');
  }
  if (viewports.length > 0) execute.viewport = viewports;
  const userAgent = r.raw('user-agent');
  if (userAgent) {
    if (/[\r\n]/.test(userAgent)) r.fail('user-agent', userAgent, 'one line of text');
    execute.userAgent = userAgent;
  }
  const httpAuthUsername = r.raw('http-auth-username');
  const httpAuthPassword = r.getRaw('http-auth-password');
  if (httpAuthUsername) execute.httpAuthUsername = httpAuthUsername;
  if (httpAuthPassword !== '') {
    execute.httpAuthPassword = httpAuthPassword;
    if (!httpAuthUsername) r.fail('http-auth-username', '', 'a user name when http-auth-password is set');
  }
}

/** The data file as read by `from-env.ts`: its bytes, or why it could not be read; null when not set. */
export type DataFileContent = { name: string; content: Uint8Array } | { problem: string } | null;

/** Data rows: `data-source`, `data-file` (already read), `max-concurrent-data-rows`. */
function parseData(
  r: InputReader,
  execute: ActionInputs['execute'],
  dataFile: DataFileContent,
  withTestFiles: boolean,
): void {
  const dataSource = r.singleId('data-source');
  if (dataSource) execute.dataSource = dataSource;
  const given = r.raw('data-file');
  if (dataFile) {
    if ('problem' in dataFile) {
      r.fail(
        'data-file',
        given,
        `the path of a readable CSV file relative to the workspace (${dataFile.problem})`,
      );
    } else execute.dataFile = dataFile;
    if (dataSource) r.fail('data-file', given, 'either data-file or data-source, not both');
    if (withTestFiles) {
      r.fail('data-file', given, 'no data-file with test-files (the on-demand execute takes no data file)');
    }
  }
  const maxConcurrentDataRows = r.integer('max-concurrent-data-rows', 1, 1000, 'rows');
  if (maxConcurrentDataRows !== undefined) execute.maxConcurrentDataRows = maxConcurrentDataRows;
}

/** Switches, screenshot comparison, webhooks and the chat channel. */
function parseRunSettings(r: InputReader, execute: ActionInputs['execute']): void {
  const delay = r.integer('delay', 0, 300000, 'milliseconds');
  if (delay !== undefined) execute.delay = delay;
  const disableNotifications = r.bool('disable-notifications');
  if (disableNotifications !== undefined) execute.disableNotifications = disableNotifications;
  const disableVisuals = r.bool('disable-visuals');
  if (disableVisuals !== undefined) execute.disableVisuals = disableVisuals;
  const screenshotCompareEnabled = r.bool('screenshot-compare-enabled');
  if (screenshotCompareEnabled !== undefined) execute.screenshotCompareEnabled = screenshotCompareEnabled;
  const threshold = r.raw('screenshot-compare-threshold');
  if (threshold) {
    const n = Number(threshold);
    if (!/^(\d+\.?\d*|\.\d+)$/.test(threshold) || !(n >= 0 && n <= 1)) {
      r.fail('screenshot-compare-threshold', threshold, 'a number from 0.0 to 1.0');
    } else execute.screenshotCompareThreshold = n;
  }
  const baseline = r.singleId('screenshot-compare-baseline-result');
  if (baseline) execute.screenshotCompareBaselineResult = baseline;
  const exclusions = r.raw('screenshot-exclusions');
  if (exclusions) execute.screenshotExclusions = exclusions;
  const target = r.raw('screenshot-target');
  if (target) execute.screenshotTarget = target;
  const webhooks = r.list('webhook');
  for (const w of webhooks) if (!isHttpUrl(w)) r.fail('webhook', w, 'http or https URLs');
  if (webhooks.length > 0) execute.webhook = webhooks;
  const chatChannel = r.raw('chat-channel');
  if (chatChannel) {
    if (!/^#?[^\s#]+$/.test(chatChannel))
      r.fail('chat-channel', chatChannel, 'a channel name without spaces');
    else execute.chatChannel = chatChannel.replace(/^#/, '');
  }
}

/** Every execute parameter the user set, in the service's names, with the variables; problems go to `r`. */
export function parseExecute(
  r: InputReader,
  dataFile: DataFileContent,
  withTestFiles: boolean,
): { execute: ActionInputs['execute']; privateVariables: Record<string, string> } {
  const execute: ActionInputs['execute'] = {};
  parseBrowsing(r, execute);
  parseData(r, execute, dataFile, withTestFiles);
  parseRunSettings(r, execute);
  const publicVars = parseVariables(r.getRaw('variables'), 'variables', r.fail);
  const privateVars = parseVariables(r.getRaw('private-variables'), 'private-variables', r.fail);
  for (const name of Object.keys(privateVars)) {
    if (Object.hasOwn(publicVars, name)) {
      // The name is not secret: say which one clashes (the value stays hidden).
      r.fail('private-variables', '***', `names not also listed in variables (${name} is in both)`);
    }
  }
  const variables: Record<string, string> = Object.assign(
    Object.create(null) as object,
    publicVars,
    privateVars,
  );
  if (Object.keys(variables).length > 0) execute.variables = variables;
  return { execute, privateVariables: privateVars };
}
