/**
 * Seed files: the records an emulator starts with. A seed is JSON (example: `emulator/seed/default.json`):
 * `{users?, organizations, apiKeys?, folders?, dataSources?, suites?, tests?}`; only `organizations` is
 * required, users default to one demo user. Suites and tests take any of their settings; what is left out
 * gets the documented defaults of a new suite (docs/api-contract.md, "Resources") and null test settings. A
 * test may carry a `scenario` for the simulated executor. An organization's `testRuns` counts grow with every
 * run. A reference to an unknown record is an error.
 */
import { readFileSync } from 'node:fs';
import type { DataSource, Folder, Notifications, Step } from './api-types.js';
import type { Plan } from './api-types.js';
import { parseScenario } from './executors/simulated.js';
import { newSuiteDefaults, newTestDefaults, type Store } from './store.js';
import { EPOCH, iso } from './util.js';

export interface SeedOrganization {
  _id: string;
  name: string;
  address?: string;
  city?: string;
  state?: string;
  postalCode?: string;
  country?: string;
  email?: string;
  emailBilling?: string;
  dateCreated?: string;
  plan?: Partial<Plan>;
  testRuns?: Record<string, number>;
  /** Notification settings that suites and tests inherit (`{webhooks: {enabled, options: {urls}}}`). */
  notifications?: Notifications;
}

export interface SeedFile {
  users?: Array<{ _id: string; firstName: string; lastName: string }>;
  organizations: SeedOrganization[];
  /** API keys; `user` defaults to the first user, `organizations` to every organization. */
  apiKeys?: Array<{ key: string; user?: string; organizations?: string[] }>;
  folders?: Folder[];
  dataSources?: DataSource[];
  /** Suites: `_id`, `name`, `organization`, then any suite setting. */
  suites?: Array<Record<string, unknown> & { _id: string; name: string; organization: string }>;
  /** Tests: `_id`, `name`, `suite`, `steps` (stored form, `_id` optional), optional `scenario`, any test setting. */
  tests?: Array<
    Record<string, unknown> & {
      _id: string;
      name: string;
      suite: string;
      steps?: Array<Partial<Step>>;
      scenario?: unknown;
    }
  >;
}

/** The plan a seeded organization gets unless its seed says otherwise. */
export const DEFAULT_PLAN: Plan = {
  advancedScheduling: true,
  maxCsvUploadRows: 1000,
  maxViewportSize: { width: 3840, height: 2160 },
  memberCount: 10,
  name: 'Business',
  overagePrice: 0.02,
  price: 399,
  retentionMonths: 12,
  screenshotSteps: true,
  testRuns: 50000,
  yearly: false,
};

/** The default seed shipped with the emulator (`emulator/seed/default.json`). */
export function defaultSeed(): SeedFile {
  return JSON.parse(readFileSync(new URL('./seed/default.json', import.meta.url), 'utf8')) as SeedFile;
}

/** Reads a seed file (JSON). Throws an Error naming the file when it cannot be read or parsed. */
export function readSeedFile(path: string): SeedFile {
  try {
    return JSON.parse(readFileSync(path, 'utf8')) as SeedFile;
  } catch (error) {
    throw new Error(`Cannot read seed file ${path}: ${(error as Error).message}`);
  }
}

/**
 * Loads a seed into an empty store, its records dated `nowMs` (epoch ms; default the real time). Throws an
 * Error naming the record when a reference is unknown or a scenario is invalid.
 */
export function loadSeed(store: Store, seed: SeedFile, nowMs = Date.now()): void {
  const now = iso(nowMs);
  const users = seed.users?.length ? seed.users : [{ _id: 'user-demo', firstName: 'Demo', lastName: 'User' }];
  for (const u of users) store.users.set(u._id, { ...u });
  for (const o of seed.organizations ?? []) {
    store.organizations.set(o._id, {
      _id: o._id,
      name: o.name,
      address: o.address ?? '',
      city: o.city ?? '',
      state: o.state ?? '',
      postalCode: o.postalCode ?? '',
      country: o.country ?? '',
      email: o.email ?? '',
      emailBilling: o.emailBilling ?? '',
      dateCreated: o.dateCreated ?? now,
      testRuns: { ...(o.testRuns ?? {}) },
      plan: { ...DEFAULT_PLAN, ...(o.plan ?? {}) },
      notifications: structuredClone(o.notifications ?? {}),
    });
  }
  const orgIds = [...store.organizations.keys()];
  const orgOf = (id: string, what: string) => {
    if (!store.organizations.has(id)) throw new Error(`Seed: ${what} refers to unknown organization ${id}`);
    return id;
  };
  for (const k of seed.apiKeys ?? []) {
    store.apiKeys.set(k.key, {
      key: k.key,
      user: k.user ?? users[0]._id,
      organizations: (k.organizations ?? orgIds).map((id) => orgOf(id, 'an API key')),
    });
  }
  for (const f of seed.folders ?? [])
    store.folders.set(f._id, { ...f, organization: orgOf(f.organization, `folder ${f._id}`) });
  for (const d of seed.dataSources ?? []) {
    store.dataSources.set(d._id, {
      ...structuredClone(d),
      organization: orgOf(d.organization, `data source ${d._id}`),
    });
  }
  for (const s of seed.suites ?? []) {
    const { _id, name, organization, ...settings } = structuredClone(s);
    store.suites.set(_id, {
      ...newSuiteDefaults(),
      ...(settings as object),
      _id,
      name,
      organization: orgOf(organization, `suite ${_id}`),
      user: typeof settings.user === 'string' ? settings.user : users[0]._id,
      dateCreated: typeof settings.dateCreated === 'string' ? settings.dateCreated : now,
      dateExecutionTriggered: EPOCH,
    });
  }
  for (const t of seed.tests ?? []) {
    const { _id, name, suite, steps, scenario, ...settings } = structuredClone(t);
    const s = store.suites.get(suite);
    if (!s) throw new Error(`Seed: test ${_id} refers to unknown suite ${suite}`);
    if (scenario !== undefined) {
      try {
        store.scenarios.set(_id, parseScenario(scenario));
      } catch (error) {
        throw new Error(`Seed: test ${_id}: ${(error as Error).message}`);
      }
    }
    store.tests.set(_id, {
      ...newTestDefaults(),
      ...(settings as object),
      _id,
      name,
      organization: s.organization,
      suite,
      user: typeof settings.user === 'string' ? settings.user : users[0]._id,
      dateCreated: now,
      dateUpdated: now,
      steps: (steps ?? []).map((step, i) => ({
        _id: step._id ?? store.newId(),
        sequence: i,
        command: step.command ?? 'click',
        target: step.target ?? '',
        value: step.value ?? '',
        variableName: step.variableName ?? '',
        condition: step.condition ?? null,
        optional: step.optional ?? false,
        private: step.private ?? false,
        notes: step.notes ?? '',
      })),
    });
  }
}
