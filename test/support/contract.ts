/**
 * Facts of the contract (docs/api-contract.md) that several tests hold the emulator and the client to.
 */

/** The settings of a newly created suite (contract "Suite"). */
export const NEW_SUITE_SETTINGS = {
  abortOnTestFailure: false,
  autoRetry: false,
  browser: 'chrome',
  disableVisuals: false,
  disallowInsecureCertificates: false,
  failOnJavaScriptError: false,
  finalDelay: 0,
  folder: null,
  globalStepDelay: 250,
  language: null,
  maxAjaxDelay: 10000,
  maxConcurrentTests: 0,
  maxWaitDelay: 15000,
  persistVariables: false,
  publicStatusEnabled: false,
  region: 'us-east-1',
  screenshotCompareEnabled: false,
  screenshotCompareThreshold: 0.1,
  startUrl: '',
  testCount: 0,
  testFrequency: 0,
  testFrequencyAdvanced: [],
  viewportSize: { height: 768, width: 1024 },
};
