import { tmpdir } from 'node:os';
import { createEventStore } from '../../src/infrastructure/event-store/event-store.factory';
import { progress } from '../lib/bench-main';
import { benchEvent } from './audit-appends';

export interface SeedFigures {
  events: number;
  streams: number;
  seconds: number;
  eventsPerSecond: number;
}

/**
 * One account's log of `events` events over `streams` trunk streams, appended through the store
 * (so every event is chained) in batches, by a few writers that each own a share of the streams.
 * The events are of a type no projection acts on: the app's read models stay as they are.
 */
export async function seedAccount(
  url: string,
  schema: string,
  accountId: string,
  options: { events: number; streams: number; batch: number; writers: number },
): Promise<SeedFigures> {
  const store = await createEventStore({ url, schema, dataDir: tmpdir(), poolSize: options.writers + 1 });
  const started = process.hrtime.bigint();
  let written = 0;
  let reported = 0;
  try {
    await Promise.all(
      Array.from({ length: options.writers }, async (_, w) => {
        const mine = Array.from({ length: options.streams }, (_, s) => s).filter((s) => s % options.writers === w);
        const revisions = new Map<number, number>();
        for (let turn = 0; ; turn += 1) {
          const share = Math.min(options.batch, options.events - written);
          if (share <= 0) return;
          written += share;
          const stream = mine[turn % mine.length];
          const events = Array.from({ length: share }, (_, i) => ({
            ...benchEvent(accountId, i),
            type: 'AuditBenchRecorded',
          }));
          const revision = revisions.get(stream);
          const result = await store.append(`trunk-audit-bench-${stream}`, events, revision ?? 'no_stream');
          revisions.set(stream, result.nextExpectedVersion);
          if (written - reported >= 100_000) {
            reported = written;
            progress(`seeded ${written} events`);
          }
        }
      }),
    );
  } finally {
    await store.close();
  }
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  return {
    events: options.events,
    streams: options.streams,
    seconds,
    eventsPerSecond: Math.round(options.events / seconds),
  };
}
