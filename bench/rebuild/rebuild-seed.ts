import type { EventStore, GlobalPosition } from '../../src/infrastructure/event-store/event-store.port';
import type { SecretBox } from '../../src/infrastructure/secrets/secret-box.port';
import { progress } from '../lib/bench-main';
import { accountHistory, type Append, HistoryClock, random } from './rebuild-history';
import { TrunkLife } from './rebuild-trunk-life';

export interface SeedOptions {
  events: number;
  writers: number;
  /** Events of one trunk per append (a trunk's next few changes in one round trip, to seed quickly). */
  chunk: number;
  /** Called with each append's position (a test waits until the last one is visible to readers). */
  onAppended?: (position: GlobalPosition) => void;
}

export interface SeedFigures {
  events: number;
  /** Appended events by type: what the rebuilt read models are checked against. */
  byType: Record<string, number>;
  seconds: number;
  eventsPerSecond: number;
}

/** Trunks each writer keeps alive at once: their changes interleave in the global order. */
const LIVE_TRUNKS = 32;
const TRUNKS_PER_ACCOUNT = 100;

/**
 * Exactly `events` events of a realistic control plane, appended through the store (chained, as
 * the app writes them) by a few writers: accounts with their API keys, and trunks living their
 * lives side by side (trunk-life.ts). The last append is cut to land on the count.
 */
export async function seedHistory(store: EventStore, secrets: SecretBox, options: SeedOptions): Promise<SeedFigures> {
  const started = process.hrtime.bigint();
  const byType: Record<string, number> = {};
  let remaining = options.events;
  let reported = 0;
  const append = async (a: Append): Promise<void> => {
    if (remaining <= 0) return;
    const events = a.events.slice(0, remaining);
    remaining -= events.length;
    for (const e of events) byType[e.type] = (byType[e.type] ?? 0) + 1;
    const { position } = await store.append(a.stream, events, a.expected);
    options.onAppended?.(position);
    if (options.events - remaining - reported >= 100_000) {
      reported = options.events - remaining;
      progress(`seeded ${reported} events`);
    }
  };
  await Promise.all(
    Array.from({ length: options.writers }, (_, w) =>
      writer(w, { ...options, secrets, append, left: () => remaining }),
    ),
  );
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  return { events: options.events, byType, seconds, eventsPerSecond: Math.round(options.events / seconds) };
}

interface WriterContext extends SeedOptions {
  secrets: SecretBox;
  append: (a: Append) => Promise<void>;
  left: () => number;
}

async function writer(w: number, ctx: WriterContext): Promise<void> {
  const rand = random(w + 1);
  const clock = new HistoryClock();
  const live: TrunkLife[] = [];
  let trunks = 0;
  let accountId = '';
  const born = async (): Promise<TrunkLife> => {
    if (trunks % TRUNKS_PER_ACCOUNT === 0) {
      accountId = `acc_w${w}_${trunks / TRUNKS_PER_ACCOUNT}`;
      for (const a of accountHistory(accountId, clock)) await ctx.append(a);
    }
    const life = new TrunkLife(`trk_w${w}_${trunks++}`, accountId, rand, ctx.secrets, clock);
    for (const a of await life.create()) await ctx.append(a);
    return life;
  };
  for (let turn = 0; ctx.left() > 0; turn++) {
    if (live.length < LIVE_TRUNKS) {
      live.push(await born());
      continue;
    }
    const slot = turn % live.length;
    const appends = await live[slot].next(ctx.chunk);
    if (appends === null) live[slot] = await born();
    else for (const a of appends) await ctx.append(a);
  }
}
