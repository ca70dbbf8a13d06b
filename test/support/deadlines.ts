/**
 * How long a test waits for something that will happen, however busy the machine: a process to
 * start, a replay to catch up, a webhook to arrive. These are hang guards, never measurements: a
 * passing test does not wait for them, so they are set for the slowest honest machine (a 2-core CI
 * runner at a load average of 8, `npm run test:busy`), not for a quiet laptop. Each is a setting.
 */
const setting = (name: string, fallback: number): number => {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < 1000)
    throw new Error(`${name} must be a whole number of ms >= 1000 (got ${raw})`);
  return value;
};

/** A process (the service, a CLI, a ClickHouse test server, Kamailio) until it is ready. */
export const START_DEADLINE_MS = setting('TEST_START_DEADLINE_MS', 180_000);

/** A condition the system brings about by itself (projections, deliveries, leases, replays). */
export const SETTLE_DEADLINE_MS = setting('TEST_SETTLE_DEADLINE_MS', 120_000);

/**
 * A test or hook as a whole (jest's testTimeout): above the two above, so a wait fails with its
 * own message before jest cuts the test off.
 */
export const TEST_DEADLINE_MS = setting('TEST_DEADLINE_MS', 300_000);
