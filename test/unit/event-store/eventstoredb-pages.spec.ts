import { PassThrough } from 'node:stream';
import type { AllStreamResolvedEvent, EventStoreDBClient } from '@eventstore/db-client';
import { bufferedPages } from '../../../src/infrastructure/event-store/eventstoredb/buffered-pages';
import { EventStoreDbSubscription } from '../../../src/infrastructure/event-store/eventstoredb/eventstoredb.subscription';
import type { StoredEvent } from '../../../src/infrastructure/event-store/event-store.port';
import { silentLogger } from '../../../src/infrastructure/event-store/event-store.logger';
import { SETTLE_DEADLINE_MS } from '../../support/deadlines';

/*
 * The paging of the EventStoreDB subscription, without a server (its contract suite needs
 * EVENTSTORE_URL): the client's subscription is an object-mode Readable, so a PassThrough fed
 * with resolved events stands in for it.
 */

const recorded = (n: number, type = 'TrunkCreated'): AllStreamResolvedEvent => ({
  event: {
    id: `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`,
    type,
    data: { n },
    metadata: {},
    streamId: `trunk-${n % 3}`,
    revision: BigInt(n),
    position: { commit: BigInt(n), prepare: BigInt(n) },
    created: new Date(0),
    isJson: true,
    contentType: 'application/json',
  } as unknown as AllStreamResolvedEvent['event'],
});

const objects = (highWaterMark: number) => new PassThrough({ objectMode: true, highWaterMark });

async function collect<T>(pages: AsyncGenerator<T[]>, count: number): Promise<T[][]> {
  const seen: T[][] = [];
  for await (const page of pages) {
    seen.push(page);
    if (seen.flat().length >= count) break;
  }
  return seen;
}

describe('bufferedPages', () => {
  it('takes everything already buffered as one page, in order, up to the page size', async () => {
    const source = objects(100);
    for (let n = 1; n <= 25; n++) source.write(n);
    const pages = await collect(
      bufferedPages<number, number>(source, 10, (n) => n),
      25,
    );
    expect(pages.map((p) => p.length)).toEqual([10, 10, 5]);
    expect(pages.flat()).toEqual(Array.from({ length: 25 }, (_, i) => i + 1));
  });

  it('hands over an item that arrives alone without waiting for a full page', async () => {
    const source = objects(100);
    const pages = bufferedPages<number, number>(source, 10, (n) => n);
    const first = pages.next();
    source.write(7);
    expect((await first).value).toEqual([7]);
    await pages.return(undefined);
  });

  it('drops what accept refuses without handing over an empty page', async () => {
    const source = objects(100);
    [1, 2, 3, 4, 5].forEach((n) => source.write(n));
    source.end();
    const pages: number[][] = [];
    for await (const page of bufferedPages<number, number>(source, 10, (n) => (n % 2 ? n : undefined)))
      pages.push(page);
    expect(pages).toEqual([[1, 3, 5]]);
  });
});

/** A client whose subscribeToAll hands out PassThroughs the test feeds. */
function fakeClient() {
  const opened: { stream: PassThrough; options: unknown; readable: { highWaterMark?: number } }[] = [];
  const client = {
    subscribeToAll: (options: unknown, readable: { highWaterMark?: number }) => {
      const stream = Object.assign(objects(readable.highWaterMark ?? 16), {
        unsubscribe: async () => void stream.destroy(),
      });
      opened.push({ stream, options, readable });
      return stream;
    },
  };
  return { client: client as unknown as EventStoreDBClient, opened };
}

const until = async (condition: () => boolean): Promise<void> => {
  const deadline = Date.now() + SETTLE_DEADLINE_MS;
  while (!condition() && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 5));
  expect(condition()).toBe(true);
};

describe('EventStoreDbSubscription', () => {
  it('hands a backlog to the handler in pages, one call at a time, skipping system events', async () => {
    const { client, opened } = fakeClient();
    const pages: number[][] = [];
    let running = 0;
    let overlapped = false;
    const subscription = new EventStoreDbSubscription(
      client,
      null,
      50,
      async (batch: StoredEvent[]) => {
        overlapped ||= running++ > 0;
        pages.push(batch.map((e) => Number(e.position.lo)));
        await new Promise((resolve) => setTimeout(resolve, 2));
        running--;
      },
      silentLogger,
    );
    expect(opened[0].readable.highWaterMark).toBe(50);
    for (let n = 1; n <= 120; n++) opened[0].stream.write(recorded(n, n === 60 ? '$metadata' : 'TrunkCreated'));
    await until(() => pages.flat().length === 119);
    await subscription.stop();
    expect(overlapped).toBe(false);
    expect(pages.length).toBeLessThan(119 / 10);
    expect(Math.max(...pages.map((p) => p.length))).toBeLessThanOrEqual(50);
    expect(pages.flat()).toEqual(Array.from({ length: 120 }, (_, i) => i + 1).filter((n) => n !== 60));
  });

  it('retries a failed page as is, then reopens after the last delivered position when dropped', async () => {
    const { client, opened } = fakeClient();
    const calls: number[][] = [];
    let failures = 1;
    const subscription = new EventStoreDbSubscription(
      client,
      null,
      10,
      async (batch: StoredEvent[]) => {
        calls.push(batch.map((e) => Number(e.position.lo)));
        if (failures-- > 0) throw new Error('read model away');
      },
      silentLogger,
    );
    [1, 2, 3].forEach((n) => opened[0].stream.write(recorded(n)));
    await until(() => calls.length === 2);
    expect(calls[1]).toEqual(calls[0]);
    opened[0].stream.destroy(new Error('connection reset'));
    await until(() => opened.length === 2);
    expect(opened[1].options).toMatchObject({ fromPosition: { commit: 3n, prepare: 3n } });
    await subscription.stop();
  });
});
