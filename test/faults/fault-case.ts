import { SETTLE_DEADLINE_MS } from '../support/deadlines';
import type { FaultEnvironment } from './fault-env';
import type { FaultRow } from './fault-table';
import { MIXED, Traffic, type TrafficMix } from './traffic';
import { verify, type Verification } from './verify';

export interface FaultSpec {
  name: string;
  injected: string;
  mix?: TrafficMix;
  /**
   * Breaks something while traffic runs and repairs it; resolves with the window in which it was
   * broken ([from, to], ms since the epoch) and what shows that the fault struck (for the table).
   */
  inject(env: FaultEnvironment): Promise<Injected>;
  /** The service itself was away (SIGKILL): connection errors are expected in the window. */
  serviceDown?: boolean;
  /** Settings the service runs with during this case (the service is restarted before it when needed). */
  serviceEnv?: Record<string, string>;
}

export interface Injected {
  window: [number, number];
  evidence?: string;
}

export interface FaultOutcome {
  window: [number, number];
  row: FaultRow;
  verification: Verification;
  unexpected: string[];
  /** Connection errors outside the window (a service that was up refused a connection). */
  strayConnectionErrors: number;
}

/** Acknowledgements before the fault, so it strikes a service under load with data to lose. */
const BEFORE = 120;
/** Acknowledgements after the repair: the service must have recovered by itself. */
const AFTER = 60;

export async function runFaultCase(env: FaultEnvironment, spec: FaultSpec): Promise<FaultOutcome> {
  await env.useServiceEnv(spec.serviceEnv ?? {});
  const tenant = await env.tenant(`Faults ${spec.name}`);
  const traffic = new Traffic(env, tenant, spec.name.replace(/\W+/g, '-'), spec.mix ?? MIXED);
  traffic.start();
  let injected: Injected;
  let recoveryMs: number;
  try {
    await traffic.acknowledged(BEFORE);
    injected = await spec.inject(env);
    recoveryMs = await recovered(traffic, injected.window[1], spec.mix ?? MIXED);
    await traffic.acknowledged(AFTER);
  } finally {
    await traffic.stop();
  }
  await env.waitReady();
  const verification = await verify(env, tenant, traffic.ledger);
  const window = injected.window;
  const down = traffic.ledger.within(window[0], window[1]);
  const row: FaultRow = {
    case: spec.name,
    injected: injected.evidence ? `${spec.injected} (${injected.evidence})` : spec.injected,
    downMs: window[1] - window[0],
    requests: traffic.ledger.samples.length,
    acknowledged: verification.acknowledged,
    found: verification.found,
    lost: verification.lost.length,
    duplicated: verification.duplicated.length,
    maxLatencyDownMs: Math.max(0, ...down.map((s) => s.ms)),
    unavailable: down.filter((s) => s.status === 503).length,
    recoveryMs,
  };
  const windows: [number, number][] = spec.serviceDown ? [window] : [];
  return {
    window,
    row,
    verification,
    unexpected: traffic.ledger.unexpected,
    strayConnectionErrors: traffic.ledger.connectionErrorsOutside(windows),
  };
}

/**
 * ms from the repair to the end of the first acknowledged write sent after it: a trunk write
 * (which needs PostgreSQL and Redis) when the mix has them, else an ingestion. -1 if none in 60 s.
 */
async function recovered(traffic: Traffic, repairedAt: number, mix: TrafficMix): Promise<number> {
  const writes = mix.create + mix.update + mix.rotate > 0 ? ['create', 'update', 'rotate'] : ['ingest'];
  while (Date.now() - repairedAt < SETTLE_DEADLINE_MS) {
    const first = traffic.ledger.samples.find(
      (s) => s.start >= repairedAt && s.status >= 200 && s.status < 300 && writes.includes(s.op),
    );
    if (first) return first.start + first.ms - repairedAt;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  return -1;
}
