/** What the client sends: execute parameters and paging of result lists (docs/api-contract.md). */

/** Region values (docs/api-contract.md, "Resources"). */
export const REGIONS = [
  'us-east-1',
  'us-west-1',
  'ca-central-1',
  'eu-central-1',
  'eu-west-1',
  'eu-west-2',
  'eu-west-3',
  'eu-north-1',
  'me-south-1',
  'ap-east-1',
  'ap-northeast-1',
  'ap-northeast-2',
  'ap-southeast-1',
  'ap-southeast-2',
  'ap-south-1',
  'sa-east-1',
] as const;

/** Execute parameters (docs/api-contract.md: Execute parameters); `browser`, `region`, `viewport` may repeat. */
export interface ExecuteOptions {
  startUrl?: string;
  browser?: string | string[];
  userAgent?: string;
  dataSource?: string;
  /** Milliseconds before start; at most 300000. */
  delay?: number;
  region?: string | string[];
  httpAuthUsername?: string;
  httpAuthPassword?: string;
  /** Test execute only. */
  webhook?: string | string[];
  disableNotifications?: boolean;
  immediate?: boolean;
  /** A CSV file; sent as multipart (POST). */
  dataFile?: { name: string; content: Uint8Array | string };
  disableVisuals?: boolean;
  maxConcurrentDataRows?: number;
  screenshotCompareEnabled?: boolean;
  /** 0.0 to 1.0. */
  screenshotCompareThreshold?: number;
  /** Test execute only: a completed test result id used as baseline. */
  screenshotCompareBaselineResult?: string;
  /** Comma-separated CSS selectors. */
  screenshotExclusions?: string;
  screenshotTarget?: string;
  /** `{width}x{height}`; may repeat. */
  viewport?: string | string[];
  chatChannel?: string;
  /** Custom variables: each becomes a parameter of its own name. */
  variables?: Record<string, string>;
}

/** `count` (default 10, max 50) and `offset` (default 0) for result lists (docs/api-contract.md, "Polling a run"). */
export interface Paging {
  count?: number;
  offset?: number;
}
