import {
  eventHash,
  recordOf,
  SEALED_KEY,
  sealSecrets,
  sha256Hex,
} from '../../../src/infrastructure/event-store/event-hash';
import type { StoredEvent } from '../../../src/infrastructure/event-store/event-store.port';
import { CASE, type CaseRegistrar, type ContractContext } from './cases';
import { visible } from '../../support/visible-events';
import { headPosition, ids, newEvent, newEvents, newPrefix, readAllOf } from './helpers';

/** Every link of a stream read whole: revisions from 0, each hash recomputed, each pointing back. */
function expectUnbrokenChain(events: StoredEvent[]): void {
  expect(events.map((e) => e.revision)).toEqual(events.map((_, i) => i));
  events.forEach((event, i) => {
    expect(event.hash).toMatch(/^[0-9a-f]{64}$/);
    expect(event.previousHash).toBe(i === 0 ? null : events[i - 1].hash);
    expect(eventHash(recordOf(event))).toBe(event.hash);
  });
}

export function chainCases(test: CaseRegistrar, ctx: ContractContext): void {
  test(CASE.chainLinks, async () => {
    const store = ctx.store();
    const stream = newPrefix('chain');
    await store.append(stream, newEvents(3), 'no_stream');
    await store.append(`${stream}-neighbour`, [newEvent()], 'no_stream');
    await store.append(stream, [newEvent({ data: { text: 'ünïcödé ☎', n: 1.5, list: [null, true] } })], 2);
    await store.append(stream, newEvents(2), 'any');
    const events = await store.readStream(stream);
    expect(events).toHaveLength(6);
    expectUnbrokenChain(events);
    expect(new Set(events.map((e) => e.hash)).size).toBe(6);
    // Only the stream's own events are linked: the neighbour's chain starts on its own.
    expect((await store.readStream(`${stream}-neighbour`))[0].previousHash).toBeNull();
  });

  test(CASE.chainReadAll, async () => {
    const store = ctx.store();
    const head = await headPosition(store);
    const stream = newPrefix('chainall');
    await store.append(stream, newEvents(2), 'no_stream');
    await visible(store, (await store.append(stream, newEvents(2), 1)).position);
    const all = await readAllOf(store, head, stream);
    const byStream = await store.readStream(stream);
    expect(ids(all)).toEqual(ids(byStream));
    expect(all.map((e) => [e.hash, e.previousHash])).toEqual(byStream.map((e) => [e.hash, e.previousHash]));
  });

  test(CASE.chainNewInstance, async () => {
    const stream = newPrefix('chaincold');
    await ctx.store().append(stream, newEvents(2), 'no_stream');
    for (const expected of ['any', 'stream_exists', 3] as const) {
      const store = await ctx.reopen(); // nothing cached: it learns the head from the store
      await store.append(stream, [newEvent()], expected);
    }
    expectUnbrokenChain(await ctx.store().readStream(stream));
  });

  test(CASE.chainConcurrent, async () => {
    const store = ctx.store();
    const stream = newPrefix('chainrace');
    await store.append(stream, [newEvent()], 'no_stream');
    await Promise.all(
      Array.from({ length: 4 }, async () => {
        for (let i = 0; i < 8; i += 1) await store.append(stream, [newEvent()], 'any');
      }),
    );
    const events = await store.readStream(stream);
    expect(events).toHaveLength(33);
    expectUnbrokenChain(events);
  });

  test(CASE.chainOtherInstance, async () => {
    const stream = newPrefix('chainstale');
    const other = await ctx.open();
    try {
      await ctx.store().append(stream, [newEvent()], 'no_stream');
      await other.append(stream, newEvents(2), 'any');
      await ctx.store().append(stream, [newEvent()], 'any'); // its cached head is one append old
      await other.append(stream, [newEvent()], 3);
      await Promise.all(
        [ctx.store(), other, ctx.store(), other].map(async (store) => {
          for (let i = 0; i < 5; i += 1) await store.append(stream, [newEvent()], 'any');
        }),
      );
    } finally {
      await other.close();
    }
    const events = await ctx.store().readStream(stream);
    expect(events).toHaveLength(25);
    expectUnbrokenChain(events);
  });

  test(CASE.chainSealedSecrets, async () => {
    const store = ctx.store();
    const stream = newPrefix('chainsealed');
    const secret = { v: 1, alg: 'A256GCM', iv: 'aXY=', ct: 'Y2lwaGVydGV4dA==', tag: 'dGFn' };
    await store.append(
      stream,
      [newEvent({ data: { name: 'x', sip_password: secret, wiring: [secret] } })],
      'no_stream',
    );
    const [event] = await store.readStream(stream);
    const sealed = sealSecrets(event.data) as { sip_password: Record<string, string>; wiring: unknown[] };
    expect(sealed.sip_password).toEqual({
      [SEALED_KEY]: sha256Hex('{"alg":"A256GCM","ct":"Y2lwaGVydGV4dA==","iv":"aXY=","tag":"dGFn","v":1}'),
    });
    expect(JSON.stringify(sealed)).not.toContain(secret.ct);
    expect(eventHash(recordOf({ ...event, data: sealed }))).toBe(event.hash);
    expect(eventHash(recordOf(event))).toBe(event.hash);
  });
}
