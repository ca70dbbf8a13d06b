import fc from 'fast-check';
import { MemoryReadModelStore } from '../../../src/infrastructure/read-model/memory.read-model-store';
import type { WriteOp } from '../../../src/infrastructure/read-model/read-model-store.port';
import { BatchView, compactOps } from '../../../src/eventsourcing/batch-view';
import { RecordMemo } from '../../../src/eventsourcing/memo-codec';
import { jsonCodec, isString, objectOf } from '../../../src/infrastructure/read-model/read-model.codec';

/** Ops of every kind over a few keys, each key of one Redis type as the projections use them. */
const op: fc.Arbitrary<WriteOp> = fc.oneof(
  fc.record({ op: fc.constant('set' as const), key: fc.constantFrom('s1', 's2'), value: fc.string({ maxLength: 3 }) }),
  fc.record({ op: fc.constant('del' as const), key: fc.constantFrom('s1', 's2', 'h1', 'z1') }),
  fc.record({
    op: fc.constant('hset' as const),
    key: fc.constant('h1'),
    fields: fc.dictionary(fc.constantFrom('a', 'b'), fc.string({ maxLength: 2 }), { minKeys: 1 }),
  }),
  fc.record({
    op: fc.constant('hdel' as const),
    key: fc.constant('h1'),
    fields: fc.constant(['a']).map((f) => [...f]),
  }),
  fc.record({
    op: fc.constant('zadd' as const),
    key: fc.constant('z1'),
    score: fc.integer({ min: 0, max: 5 }),
    member: fc.constantFrom('m1', 'm2'),
  }),
  fc.record({ op: fc.constant('zrem' as const), key: fc.constant('z1'), member: fc.constantFrom('m1', 'm2') }),
);

async function stateAfter(ops: WriteOp[]): Promise<unknown> {
  const store = new MemoryReadModelStore();
  await store.write(ops);
  return {
    s: await store.mget(['s1', 's2']),
    h: await store.hgetall('h1'),
    z: await store.zrange('z1', 0, 10, 'asc'),
    scores: await store.page('z1', 's', 0, 10, 'asc'),
  };
}

describe('compactOps', () => {
  it('leaves the store as the full batch would', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(op, { maxLength: 30 }), async (ops) => {
        expect(await stateAfter(compactOps(ops))).toEqual(await stateAfter(ops));
      }),
    );
  });

  it('keeps only the last write of a record overwritten in the batch', () => {
    const ops: WriteOp[] = [
      { op: 'set', key: 'trunk:1', value: 'a' },
      { op: 'zadd', key: 'feed', score: 1, member: 'x' },
      { op: 'set', key: 'trunk:1', value: 'b' },
      { op: 'zadd', key: 'feed', score: 2, member: 'x' },
    ];
    expect(compactOps(ops)).toEqual([ops[2], ops[3]]);
  });
});

describe('BatchView', () => {
  it('reads a key from the store once per batch, and the batch sees its own writes first', async () => {
    const store = new MemoryReadModelStore();
    await store.write([{ op: 'set', key: 'k', value: 'stored' }]);
    const reads: string[][] = [];
    const counting = Object.assign(Object.create(store) as MemoryReadModelStore, {
      mget: (keys: string[]) => (reads.push(keys), store.mget(keys)),
      get: (key: string) => (reads.push([key]), store.get(key)),
    });
    const view = new BatchView(counting);
    expect(await view.load(['k', 'missing', 'k'])).toEqual(['stored', null, 'stored']);
    expect(await view.get('k')).toBe('stored');
    view.record({ op: 'set', key: 'k', value: 'new' });
    expect(await view.get('k')).toBe('new');
    view.record({ op: 'del', key: 'k' });
    expect(await view.get('k')).toBeNull();
    expect(reads).toEqual([['k', 'missing']]);
  });

  it('knows without a read what it loaded and what the batch wrote, and nothing else', async () => {
    const store = new MemoryReadModelStore();
    await store.write([{ op: 'set', key: 'k', value: 'stored' }]);
    const view = new BatchView(store);
    await view.load(['k', 'missing']);
    expect([view.known('k'), view.known('missing'), view.known('unread')]).toEqual(['stored', null, undefined]);
    view.record({ op: 'set', key: 'unread', value: 'new' });
    view.record({ op: 'del', key: 'k' });
    expect([view.known('k'), view.known('unread')]).toEqual([null, 'new']);
  });
});

describe('RecordMemo', () => {
  const memo = new RecordMemo(jsonCodec('record', objectOf<{ name: string }>({ name: isString })));

  it('prints a record only when its op is written, and hands the batch back the object it wrote', async () => {
    const view = new BatchView(new MemoryReadModelStore());
    const record = { name: 'first' };
    const write = memo.set('r', record);
    view.record(write);
    expect(await memo.read(view, 'r')).toBe(record);
    expect([write.op, write.key, write.op === 'set' && write.value]).toEqual(['set', 'r', '{"name":"first"}']);
    expect(JSON.parse(JSON.stringify(write))).toEqual({ op: 'set', key: 'r', value: '{"name":"first"}' });
  });

  it('reads back in the next batch the record it wrote, without parsing its text again', async () => {
    const store = new MemoryReadModelStore();
    const record = { name: 'written' };
    const write = memo.set('w', record);
    await store.write([write]);
    const parse = jest.spyOn(JSON, 'parse');
    try {
      expect(await memo.read(new BatchView(store), 'w')).toBe(record);
      expect(parse).not.toHaveBeenCalled();
      // Another writer's text is parsed (and checked) as usual.
      await store.write([{ op: 'set', key: 'w', value: '{"name":"other"}' }]);
      expect(await memo.read(new BatchView(store), 'w')).toEqual({ name: 'other' });
    } finally {
      parse.mockRestore();
    }
  });

  it('gives a record the batch holds at once, and one it does not after reading it', async () => {
    const store = new MemoryReadModelStore();
    await store.write([{ op: 'set', key: 'stored', value: '{"name":"stored"}' }]);
    const view = new BatchView(store);
    const record = { name: 'written' };
    view.record(memo.set('w', record));
    view.record({ op: 'del', key: 'gone' });
    const name = (r: { name: string } | null) => r?.name ?? null;
    expect(memo.with(view, 'w', name)).toBe('written');
    expect(memo.with(view, 'gone', name)).toBeNull();
    const read = memo.with(view, 'stored', name);
    expect(read).toBeInstanceOf(Promise);
    expect(await read).toBe('stored');
    expect(memo.with(view, 'stored', name)).toBe('stored');
  });

  it('still refuses a stored record that is not of its shape', async () => {
    const store = new MemoryReadModelStore();
    await store.write([{ op: 'set', key: 'bad', value: '{"name":1}' }]);
    await expect(memo.read(new BatchView(store), 'bad')).rejects.toThrow('corrupt record');
  });
});
