import { comparePositions } from '../../../src/infrastructure/event-store/event-store.port';
import { visible } from '../../support/visible-events';
import { CASE, type CaseRegistrar, type ContractContext } from './cases';
import {
  Follower,
  headPosition,
  ids,
  isStrictlyIncreasing,
  newEvent,
  newEvents,
  newPrefix,
  readAllOf,
  sleep,
} from './helpers';

export function readCases(test: CaseRegistrar, ctx: ContractContext): void {
  test(CASE.readStream, async () => {
    const store = ctx.store();
    const stream = newPrefix('read');
    const events = newEvents(12); // more than 10: revisions must sort as numbers
    await store.append(stream, events.slice(0, 2), 'no_stream');
    await store.append(`${stream}-neighbour`, [newEvent()], 'no_stream');
    await store.append(stream, events.slice(2, 3), 1);
    await store.append(stream, events.slice(3), 2);
    const all = await store.readStream(stream);
    expect(ids(all)).toEqual(ids(events));
    expect(all.map((e) => e.revision)).toEqual(events.map((_, i) => i));
    expect(all.every((e) => e.streamId === stream)).toBe(true);
    expect(ids(await store.readStream(stream, { fromRevision: 2 }))).toEqual(ids(events.slice(2)));
    expect(ids(await store.readStream(stream, { maxCount: 2 }))).toEqual(ids(events.slice(0, 2)));
    expect(ids(await store.readStream(stream, { fromRevision: 9, maxCount: 2 }))).toEqual(ids(events.slice(9, 11)));
    expect(await store.readStream(stream, { fromRevision: 12 })).toEqual([]);
    expect(await store.readStream(`${stream}-unknown`)).toEqual([]);
  });

  test(CASE.roundTrip, async () => {
    const store = ctx.store();
    const stream = newPrefix('json');
    const data = {
      text: 'ünïcödé ☎ "quoted" \\ back',
      n: 42,
      pi: 3.25,
      neg: -7,
      list: [1, 'two', null, { deep: true }],
      none: null,
      yes: false,
    };
    const metadata = { actor: 'key_123', correlation_id: 'corr-1', causation_id: 'cause-1', extra: { nested: [1, 2] } };
    const withMetadata = newEvent({ type: 'TrunkCreated', data, metadata });
    const withoutMetadata = { id: newEvent().id, type: 'TrunkDeleted', data: { reason: 'gone' } };
    const before = Date.now();
    await store.append(stream, [withMetadata, withoutMetadata], 'no_stream');
    const [first, second] = await store.readStream(stream);
    expect(first).toMatchObject({
      id: withMetadata.id,
      type: 'TrunkCreated',
      data,
      metadata,
      streamId: stream,
      revision: 0,
    });
    expect(second).toMatchObject({
      id: withoutMetadata.id,
      type: 'TrunkDeleted',
      data: { reason: 'gone' },
      revision: 1,
    });
    expect(second.metadata).toEqual({});
    expect(first.recordedAt).toBeInstanceOf(Date);
    // Stamped by the store between our append and our read (allowing for the server's clock skew),
    // however long those took.
    const CLOCK_SKEW_MS = 5000;
    expect(first.recordedAt.getTime()).toBeGreaterThanOrEqual(before - CLOCK_SKEW_MS);
    expect(first.recordedAt.getTime()).toBeLessThanOrEqual(Date.now() + CLOCK_SKEW_MS);
    expect(typeof first.position.hi).toBe('bigint');
  });

  test(CASE.readAllOrder, async () => {
    const store = ctx.store();
    const head = await headPosition(store);
    const prefix = newPrefix('all');
    const appended = [];
    let position = head;
    for (let i = 0; i < 6; i += 1) {
      const event = newEvent();
      ({ position } = await store.append(`${prefix}-${i % 3}`, [event], 'any'));
      appended.push(event);
    }
    await visible(store, position!);
    const read = await readAllOf(store, head, prefix);
    expect(ids(read)).toEqual(ids(appended));
    expect(isStrictlyIncreasing(read.map((e) => e.position))).toBe(true);
    expect(ids(await readAllOf(store, head, prefix, 2))).toEqual(ids(appended));
    const afterThird = await readAllOf(store, read[2].position, prefix);
    expect(ids(afterThird)).toEqual(ids(appended.slice(3)));
    expect(await store.readAll({ after: read[5].position, maxCount: 10 })).toEqual([]);
  });

  test(CASE.readAllTypes, async () => {
    const store = ctx.store();
    const head = await headPosition(store);
    const prefix = newPrefix('types');
    // Types no other case writes; the dot and plus must match themselves (a regex-based filter).
    const [wanted, other, third] = ['Wanted', 'Other', 'Third.v+1'].map((t) => `${t}_${prefix.slice(-8)}`);
    const [w1, o1, w2, o2, t1, w3] = [wanted, other, wanted, other, third, wanted].map((type) => newEvent({ type }));
    await store.append(`${prefix}-a`, [w1, o1, w2], 'no_stream');
    await store.append(`${prefix}-b`, [o2, t1], 'no_stream');
    const { position } = await store.append(`${prefix}-a`, [w3], 2);
    await visible(store, position);
    const types = [wanted, third];
    const first = await store.readAll({ after: head, maxCount: 2, types });
    expect(ids(first)).toEqual(ids([w1, w2]));
    const rest = await store.readAll({ after: first[1].position, maxCount: 10, types });
    expect(ids(rest)).toEqual(ids([t1, w3]));
    expect(isStrictlyIncreasing([...first, ...rest].map((e) => e.position))).toBe(true);
    expect(rest[1].position).toEqual(position);
    expect(rest[1]).toMatchObject({ type: wanted, streamId: `${prefix}-a`, revision: 3, data: w3.data });
    expect(ids(await store.readAll({ after: head, maxCount: 10, types: [other] }))).toEqual(ids([o1, o2]));
    expect(ids(await store.readAll({ after: head, maxCount: 10, types: ['Wanted'] }))).toEqual([]);
    expect(await store.readAll({ after: head, maxCount: 10, types: [] })).toEqual([]);
    expect(await store.readAll({ after: position, maxCount: 10, types })).toEqual([]);
  });

  test(CASE.lastPosition, async () => {
    const store = ctx.store();
    const { position } = await store.append(newPrefix('last'), newEvents(2), 'no_stream');
    // Fails by its deadline if lastPosition never reaches the append (below it only while an older
    // transaction anywhere on the server is still running).
    await visible(store, position);
    const last = await store.lastPosition();
    expect(last).not.toBeNull();
    expect(comparePositions(last!, position)).toBeGreaterThanOrEqual(0);
    expect(await store.readAll({ after: last, maxCount: 10 })).toEqual([]);
  });

  test(CASE.lateCommit, async () => {
    const hold = ctx.options.holdOpenAppend;
    if (!hold)
      throw new Error(`${CASE.lateCommit}: the adapter must provide holdOpenAppend or skip this case with a reason`);
    const store = ctx.store();
    const head = await headPosition(store);
    const prefix = newPrefix('late');
    const follower = new Follower(store, head, prefix);
    const early = newEvent();
    const held = await hold(`${prefix}-early`, early);
    let committed = false;
    try {
      const late = newEvent({ type: `Late_${prefix.slice(-8)}` });
      const { position } = await store.append(`${prefix}-late`, [late], 'no_stream');
      // The late event is committed, but the early one (ordered before it) can still commit.
      expect(await readAllOf(store, head, prefix)).toEqual([]);
      expect(await store.readAll({ after: head, maxCount: 10, types: [late.type] })).toEqual([]);
      const last = await store.lastPosition();
      expect(last === null || comparePositions(last, position) < 0).toBe(true);
      await sleep(300);
      expect(follower.events).toEqual([]);
      await held.commit();
      committed = true;
      await follower.waitForCount(2);
      expect(ids(follower.events)).toEqual([early.id, late.id]);
      expect(ids(await readAllOf(store, head, prefix))).toEqual([early.id, late.id]);
      expect(ids(await store.readAll({ after: head, maxCount: 10, types: [late.type] }))).toEqual([late.id]);
    } finally {
      if (!committed) await held.commit(); // an open transaction would block the schema's teardown
      await follower.stop();
    }
  });
}
