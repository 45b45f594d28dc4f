/** Organizations and their plan (the service's API v1 reference, "Organizations"). */
import type { Timestamp } from './types.js';

export interface Plan {
  advancedScheduling: boolean;
  maxCsvUploadRows: number;
  maxViewportSize: { width: number; height: number };
  memberCount: number;
  name: string;
  overagePrice: number;
  price: number;
  retentionMonths: number;
  screenshotSteps: boolean;
  testRuns: number;
  yearly: boolean;
}

/** Contract "Organization": list items carry `_id` and `name`; the single organization adds the rest. */
export interface OrganizationSummary {
  _id: string;
  name: string;
}
export interface Organization extends OrganizationSummary {
  address: string;
  city: string;
  state: string;
  postalCode: string;
  country: string;
  email: string;
  emailBilling: string;
  dateCreated: Timestamp;
  suiteCount: number;
  testCount: number;
  /** Year-month key `YYYY-MM` to a run count. */
  testRuns: Record<string, number>;
  plan: Plan;
}
