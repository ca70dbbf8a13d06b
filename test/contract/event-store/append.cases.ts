import { VersionConflictError } from '../../../src/infrastructure/event-store/event-store.port';
import { CASE, type CaseRegistrar, type ContractContext } from './cases';
import { visible } from '../../support/visible-events';
import { expectConflict, headPosition, ids, newEvent, newEvents, newPrefix, readAllOf } from './helpers';

export function appendCases(test: CaseRegistrar, ctx: ContractContext): void {
  test(CASE.createWithNoStream, async () => {
    const store = ctx.store();
    const stream = newPrefix('create');
    const events = newEvents(2);
    const result = await store.append(stream, events, 'no_stream');
    expect(result.nextExpectedVersion).toBe(1);
    const stored = await store.readStream(stream);
    expect(ids(stored)).toEqual(ids(events));
    expect(stored.map((e) => e.revision)).toEqual([0, 1]);
    expect(stored[1].position).toEqual(result.position);
  });

  test(CASE.noStreamConflict, async () => {
    const store = ctx.store();
    const head = await headPosition(store);
    const stream = newPrefix('nostream');
    const first = newEvent();
    const { position } = await store.append(stream, [first], 'no_stream');
    const conflict = await expectConflict(store.append(stream, [newEvent()], 'no_stream'), stream, 'no_stream');
    expect(conflict.actual).toBe(0);
    expect(ids(await store.readStream(stream))).toEqual([first.id]);
    await visible(store, position);
    expect(ids(await readAllOf(store, head, stream))).toEqual([first.id]);
  });

  test(CASE.streamExists, async () => {
    const store = ctx.store();
    const stream = newPrefix('exists');
    const conflict = await expectConflict(store.append(stream, [newEvent()], 'stream_exists'), stream, 'stream_exists');
    expect(conflict.actual).toBe('no_stream');
    expect(await store.readStream(stream)).toEqual([]);
    await store.append(stream, [newEvent()], 'no_stream');
    expect((await store.append(stream, [newEvent()], 'stream_exists')).nextExpectedVersion).toBe(1);
  });

  test(CASE.anyVersion, async () => {
    const store = ctx.store();
    const stream = newPrefix('any');
    expect((await store.append(stream, [newEvent()], 'any')).nextExpectedVersion).toBe(0);
    expect((await store.append(stream, newEvents(2), 'any')).nextExpectedVersion).toBe(2);
  });

  test(CASE.exactRevision, async () => {
    const store = ctx.store();
    const head = await headPosition(store);
    const stream = newPrefix('exact');
    const kept = newEvents(4);
    await store.append(stream, kept.slice(0, 3), 'no_stream');
    const last = await store.append(stream, [kept[3]], 2);
    expect(last.nextExpectedVersion).toBe(3);
    expect((await expectConflict(store.append(stream, [newEvent()], 2), stream, 2)).actual).toBe(3);
    expect((await expectConflict(store.append(stream, [newEvent()], 7), stream, 7)).actual).toBe(3);
    expect(ids(await store.readStream(stream))).toEqual(ids(kept));
    await visible(store, last.position);
    expect(ids(await readAllOf(store, head, stream))).toEqual(ids(kept));
  });

  test(CASE.idempotent, async () => {
    const store = ctx.store();
    const head = await headPosition(store);
    const stream = newPrefix('idem');
    const batch = newEvents(2);
    const original = await store.append(stream, batch, 'no_stream');
    const later = newEvent();
    const { position } = await store.append(stream, [later], 1);
    for (const expected of ['no_stream', 'any', 'stream_exists', 0, 1, 2] as const) {
      expect(await store.append(stream, batch, expected)).toEqual(original);
    }
    expect(ids(await store.readStream(stream))).toEqual([...ids(batch), later.id]);
    await visible(store, position);
    expect(ids(await readAllOf(store, head, stream))).toEqual([...ids(batch), later.id]);
  });

  // Chosen: a retried batch that differs from the stored one was decided on other state, so a
  // partial overlap is a conflict (the caller re-reads and decides again), never half-appended.
  test(CASE.partialOverlap, async () => {
    const store = ctx.store();
    const head = await headPosition(store);
    const stream = newPrefix('overlap');
    const batch = newEvents(2);
    const { position } = await store.append(stream, batch, 'no_stream');
    const fresh = newEvent();
    await expectConflict(store.append(stream, [batch[1], fresh], 1), stream, 1);
    await expectConflict(store.append(stream, [batch[1], fresh], 'any'), stream, 'any');
    const other = `${stream}-other`;
    await expectConflict(store.append(other, [batch[0]], 'no_stream'), other, 'no_stream');
    expect(ids(await store.readStream(stream))).toEqual(ids(batch));
    expect(await store.readStream(other)).toEqual([]);
    await visible(store, position);
    expect(ids(await readAllOf(store, head, stream))).toEqual(ids(batch));
  });

  test(CASE.singleWinner, async () => {
    const store = ctx.store();
    const stream = newPrefix('race');
    await store.append(stream, [newEvent()], 'no_stream');
    const attempts = await Promise.allSettled(Array.from({ length: 16 }, () => store.append(stream, [newEvent()], 0)));
    const won = attempts.filter((a) => a.status === 'fulfilled');
    const lost = attempts.filter((a): a is PromiseRejectedResult => a.status === 'rejected');
    expect(won).toHaveLength(1);
    for (const loss of lost) expect(loss.reason).toBeInstanceOf(VersionConflictError);
    expect((await store.readStream(stream)).map((e) => e.revision)).toEqual([0, 1]);
  });
}
