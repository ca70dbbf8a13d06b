import type { ReadModelStore, WriteOp } from '../../src/infrastructure/read-model/read-model-store.port';

export interface ReadModelStoreHarness {
  /** An empty store on a namespace no other case uses. */
  create(): Promise<ReadModelStore>;
  /** The same data as `store`, over a connection of its own where the adapter has connections. */
  sibling(store: ReadModelStore): Promise<ReadModelStore>;
  /** Once, after every case: removes test data, closes connections. */
  teardown(): Promise<void>;
}

const zadd = (key: string, score: number, member: string): WriteOp => ({ op: 'zadd', key, score, member });
const set = (key: string, value: string): WriteOp => ({ op: 'set', key, value });

/** Sorted set `ix` with scores chosen so score order and member order disagree. */
async function storeWithIndex(harness: ReadModelStoreHarness): Promise<ReadModelStore> {
  const store = await harness.create();
  await store.write([zadd('ix', 30, 'a'), zadd('ix', 10, 'c'), zadd('ix', 20, 'b'), zadd('ix', 40, 'd')]);
  return store;
}

export function describeReadModelStoreContract(adapter: string, harness: ReadModelStoreHarness): void {
  describe(`ReadModelStore contract (${adapter})`, () => {
    afterAll(() => harness.teardown());

    describe('strings and hashes', () => {
      it('returns null for a missing key and the value once set', async () => {
        const store = await harness.create();
        expect(await store.get('k')).toBeNull();
        await store.write([set('k', 'v1')]);
        await store.write([set('k', 'v2')]);
        expect(await store.get('k')).toBe('v2');
      });

      it('mget answers in key order, null for missing keys and for keys of another type', async () => {
        const store = await harness.create();
        await store.write([set('a', '1'), set('c', '3'), { op: 'hset', key: 'h', fields: { f: 'x' } }]);
        expect(await store.mget(['c', 'missing', 'a', 'h'])).toEqual(['3', null, '1', null]);
        expect(await store.mget([])).toEqual([]);
      });

      it('rejects get of a key that holds a hash (WRONGTYPE)', async () => {
        const store = await harness.create();
        await store.write([{ op: 'hset', key: 'h', fields: { f: 'x' } }]);
        await expect(store.get('h')).rejects.toThrow(/WRONGTYPE/);
      });

      it('hset merges fields into the hash; hgetall of a missing key is empty', async () => {
        const store = await harness.create();
        expect(await store.hgetall('h')).toEqual({});
        await store.write([{ op: 'hset', key: 'h', fields: { a: '1', b: '2' } }]);
        await store.write([{ op: 'hset', key: 'h', fields: { b: '3', c: '4' } }]);
        expect(await store.hgetall('h')).toEqual({ a: '1', b: '3', c: '4' });
      });

      it('hdel removes the named fields, and the key itself with the last field', async () => {
        const store = await harness.create();
        await store.write([{ op: 'hset', key: 'h', fields: { a: '1', b: '2' } }]);
        await store.write([{ op: 'hdel', key: 'h', fields: ['a', 'missing'] }]);
        expect(await store.hgetall('h')).toEqual({ b: '2' });
        await store.write([{ op: 'hdel', key: 'h', fields: ['b'] }]);
        // The key is gone, not an empty hash: it can now hold a string.
        await store.write([set('h', 'now a string')]);
        expect(await store.get('h')).toBe('now a string');
      });

      it('del removes a key of any type', async () => {
        const store = await harness.create();
        await store.write([set('s', 'v'), { op: 'hset', key: 'h', fields: { f: 'x' } }, zadd('z', 1, 'm')]);
        await store.write([
          { op: 'del', key: 's' },
          { op: 'del', key: 'h' },
          { op: 'del', key: 'z' },
        ]);
        expect(await store.get('s')).toBeNull();
        expect(await store.hgetall('h')).toEqual({});
        expect(await store.zcard('z')).toBe(0);
      });
    });

    describe('sorted sets', () => {
      it('zcard counts members; re-adding a member moves it without counting it twice', async () => {
        const store = await storeWithIndex(harness);
        expect(await store.zcard('missing')).toBe(0);
        await store.write([zadd('ix', 5, 'a')]);
        expect(await store.zcard('ix')).toBe(4);
        expect(await store.zrange('ix', 0, 10, 'asc')).toEqual(['a', 'c', 'b', 'd']);
      });

      it('zrange orders by score ascending, and exactly reversed for desc', async () => {
        const store = await storeWithIndex(harness);
        expect(await store.zrange('ix', 0, 10, 'asc')).toEqual(['c', 'b', 'a', 'd']);
        expect(await store.zrange('ix', 0, 10, 'desc')).toEqual(['d', 'a', 'b', 'c']);
      });

      it('zrange breaks score ties by member bytes, reversed for desc', async () => {
        const store = await harness.create();
        const members = ['b', 'B', 'a', '10', '9', 'é', 'z', '😀', '\uffff'];
        await store.write(members.map((m) => zadd('tie', 1, m)));
        const byBytes = [...members].sort((x, y) => Buffer.compare(Buffer.from(x), Buffer.from(y)));
        expect(await store.zrange('tie', 0, 100, 'asc')).toEqual(byBytes);
        expect(await store.zrange('tie', 0, 100, 'desc')).toEqual([...byBytes].reverse());
      });

      it('zrange skips offset members and returns at most count', async () => {
        const store = await storeWithIndex(harness);
        expect(await store.zrange('ix', 1, 2, 'asc')).toEqual(['b', 'a']);
        expect(await store.zrange('ix', 1, 2, 'desc')).toEqual(['a', 'b']);
        expect(await store.zrange('ix', 3, 10, 'asc')).toEqual(['d']);
        expect(await store.zrange('ix', 4, 10, 'asc')).toEqual([]);
        expect(await store.zrange('ix', 0, 0, 'asc')).toEqual([]);
        expect(await store.zrange('missing', 0, 10, 'desc')).toEqual([]);
      });

      it('zrange rejects a negative offset or count instead of reading from the end', async () => {
        const store = await storeWithIndex(harness);
        await expect(store.zrange('ix', -1, 2, 'asc')).rejects.toThrow(RangeError);
        await expect(store.zrange('ix', 0, -1, 'asc')).rejects.toThrow(RangeError);
      });

      it('zrem removes a member; removing an absent member changes nothing', async () => {
        const store = await storeWithIndex(harness);
        await store.write([
          { op: 'zrem', key: 'ix', member: 'b' },
          { op: 'zrem', key: 'ix', member: 'nope' },
        ]);
        expect(await store.zrange('ix', 0, 10, 'asc')).toEqual(['c', 'a', 'd']);
      });
    });

    describe('page', () => {
      it('returns the total and the values in index order, null where a value is missing', async () => {
        const store = await storeWithIndex(harness);
        await store.write([set('v:a', 'A'), set('v:b', 'B'), set('v:d', 'D')]);
        expect(await store.page('ix', 'v:', 0, 3, 'asc')).toEqual({ total: 4, values: [null, 'B', 'A'] });
        expect(await store.page('ix', 'v:', 1, 2, 'desc')).toEqual({ total: 4, values: ['A', 'B'] });
      });

      it('reads a page larger than one MGET batch, values still in index order', async () => {
        const store = await harness.create();
        const ids = Array.from({ length: 2500 }, (_, i) => String(i).padStart(4, '0'));
        await store.write(ids.flatMap((id, i) => [zadd('big', i, id), set(`v:${id}`, `value ${id}`)]));
        const page = await store.page('big', 'v:', 100, 2400, 'desc');
        expect(page.total).toBe(2500);
        expect(page.values).toEqual(
          ids
            .slice(0, 2400)
            .reverse()
            .map((id) => `value ${id}`),
        );
      });

      it('returns the total with no values past the end or for count 0', async () => {
        const store = await storeWithIndex(harness);
        expect(await store.page('ix', 'v:', 4, 10, 'asc')).toEqual({ total: 4, values: [] });
        expect(await store.page('ix', 'v:', 0, 0, 'desc')).toEqual({ total: 4, values: [] });
        expect(await store.page('missing', 'v:', 0, 10, 'asc')).toEqual({ total: 0, values: [] });
      });
    });

    /** Ties on score 10 (b, c, e), so a position inside a run of ties is exercised both ways. */
    const TIED: [string, number][] = [
      ['a', 5],
      ['b', 10],
      ['c', 10],
      ['e', 10],
      ['f', 20],
    ];

    describe('pageAfter', () => {
      async function tiedStore() {
        const store = await harness.create();
        await store.write(TIED.flatMap(([m, score]) => [zadd('t', score, m), set(`v:${m}`, m.toUpperCase())]));
        return store;
      }

      it('continues just after a present member, ties by member, in either order', async () => {
        const store = await tiedStore();
        expect(await store.pageAfter('t', 'v:', { score: 10, member: 'b' }, 2, 'asc')).toEqual({
          total: 5,
          values: ['C', 'E'],
        });
        expect(await store.pageAfter('t', 'v:', { score: 10, member: 'e' }, 10, 'desc')).toEqual({
          total: 5,
          values: ['C', 'B', 'A'],
        });
        expect(await store.pageAfter('t', 'v:', { score: 20, member: 'f' }, 10, 'asc')).toEqual({
          total: 5,
          values: [],
        });
      });

      it('continues where a removed member stood, and is not shifted by members added before it', async () => {
        const store = await tiedStore();
        await store.write([{ op: 'zrem', key: 't', member: 'c' }, zadd('t', 1, 'early'), zadd('t', 10, 'a0')]);
        expect(await store.pageAfter('t', 'v:', { score: 10, member: 'c' }, 10, 'asc')).toEqual({
          total: 6,
          values: ['E', 'F'],
        });
        expect(await store.pageAfter('t', 'v:', { score: 10, member: 'c' }, 10, 'desc')).toEqual({
          total: 6,
          values: ['B', null, 'A', null],
        });
      });
    });

    describe('zrangeAfter', () => {
      it('gives the members after a position as pageAfter gives their values, ties by member, removed cursor members included', async () => {
        const store = await harness.create();
        await store.write(TIED.map(([m, score]) => zadd('t', score, m)));
        expect(await store.zrangeAfter('t', { score: 10, member: 'b' }, 2, 'asc')).toEqual({
          total: 5,
          members: ['c', 'e'],
        });
        expect(await store.zrangeAfter('t', { score: 10, member: 'e' }, 10, 'desc')).toEqual({
          total: 5,
          members: ['c', 'b', 'a'],
        });
        await store.write([{ op: 'zrem', key: 't', member: 'c' }, zadd('t', 1, 'early')]);
        expect(await store.zrangeAfter('t', { score: 10, member: 'c' }, 10, 'asc')).toEqual({
          total: 5,
          members: ['e', 'f'],
        });
        expect(await store.zrangeAfter('t', { score: 10, member: 'c' }, 0, 'asc')).toEqual({ total: 5, members: [] });
        expect(await store.zrangeAfter('missing', { score: 1, member: 'x' }, 5, 'desc')).toEqual({
          total: 0,
          members: [],
        });
      });
    });

    describe('write', () => {
      it('applies the ops of a batch in order', async () => {
        const store = await harness.create();
        await store.write([set('x', '1'), { op: 'del', key: 'x' }, { op: 'del', key: 'y' }, set('y', '2')]);
        expect(await store.mget(['x', 'y'])).toEqual([null, '2']);
      });

      it('treats an empty batch and field-less hset/hdel as no-ops', async () => {
        const store = await harness.create();
        await store.write([]);
        await store.write([{ op: 'hset', key: 'h', fields: {} }, { op: 'hdel', key: 'h', fields: [] }, set('s', 'v')]);
        expect(await store.hgetall('h')).toEqual({});
        expect(await store.get('s')).toBe('v');
      });

      it('like EXEC, rejects a batch with a WRONGTYPE op but applies its other ops', async () => {
        const store = await harness.create();
        await store.write([set('s', 'v')]);
        await expect(store.write([set('before', '1'), zadd('s', 1, 'm'), set('after', '2')])).rejects.toThrow(
          /WRONGTYPE/,
        );
        expect(await store.mget(['before', 's', 'after'])).toEqual(['1', 'v', '2']);
      });

      it('applies a batch far larger than one command can unpack, every kind of op', async () => {
        const store = await harness.create();
        const fields = Object.fromEntries(Array.from({ length: 6000 }, (_, i) => [`f${i}`, `v${i}`]));
        const ops: WriteOp[] = Array.from({ length: 30000 }, (_, i) => set(`many:${i}`, `value ${i}`));
        ops.push({ op: 'hset', key: 'wide', fields }, { op: 'hdel', key: 'wide', fields: ['f0', 'f5999'] });
        ops.push(zadd('ix', 0.1 + 0.2, 'a'), zadd('ix', 2, 'b'), { op: 'zrem', key: 'ix', member: 'b' });
        ops.push({ op: 'del', key: 'many:0' });
        await store.write(ops);
        expect(await store.mget(['many:0', 'many:1', 'many:29999'])).toEqual([null, 'value 1', 'value 29999']);
        const wide = await store.hgetall('wide');
        expect(Object.keys(wide)).toHaveLength(5998);
        expect([wide.f1, wide.f5998, wide.f0]).toEqual(['v1', 'v5998', undefined]);
        expect(await store.page('ix', 'many:', 0, 10, 'asc')).toEqual({ total: 1, values: [null] });
      });

      it('never lets a concurrent reader see half a batch', async () => {
        const writer = await harness.create();
        const reader = await harness.sibling(writer);
        const batches = 300;
        let done = false;
        let reads = 0;
        const readLoop = async () => {
          while (!done) {
            const [a, b] = await reader.mget(['a', 'b']);
            expect(a).toBe(b);
            const page = await reader.page('items', 'item:', 0, 10, 'desc');
            // Each batch swaps the single indexed item and its value together.
            expect(page.values.every((v) => v !== null)).toBe(true);
            expect(page.total).toBe(page.values.length);
            expect(page.total).toBeLessThanOrEqual(1);
            reads++;
          }
        };
        const writeLoop = async () => {
          for (let i = 1; i <= batches; i++) {
            await writer.write([
              set('a', String(i)),
              { op: 'zrem', key: 'items', member: String(i - 1) },
              { op: 'del', key: `item:${i - 1}` },
              set(`item:${i}`, `value ${i}`),
              zadd('items', i, String(i)),
              set('b', String(i)),
            ]);
          }
          done = true;
        };
        await Promise.all([readLoop(), readLoop(), writeLoop()]);
        expect(reads).toBeGreaterThan(10);
        expect(await reader.page('items', 'item:', 0, 10, 'asc')).toEqual({ total: 1, values: [`value ${batches}`] });
      });
    });

    describe('clear', () => {
      it('removes every key of its namespace and nothing of another', async () => {
        const store = await harness.create();
        const other = await harness.create();
        const fill: WriteOp[] = [set('s', 'v'), { op: 'hset', key: 'h', fields: { f: 'x' } }, zadd('z', 1, 'm')];
        fill.push(...Array.from({ length: 1200 }, (_, i) => set(`bulk:${i}`, 'x')));
        await store.write(fill);
        await other.write(fill.slice(0, 3));
        await store.clear();
        expect(await store.mget(['s', 'bulk:0', 'bulk:1199'])).toEqual([null, null, null]);
        expect(await store.hgetall('h')).toEqual({});
        expect(await store.zcard('z')).toBe(0);
        expect(await other.get('s')).toBe('v');
        expect(await other.hgetall('h')).toEqual({ f: 'x' });
        expect(await other.zcard('z')).toBe(1);
      });
    });

    it('answers ping', async () => {
      const store = await harness.create();
      await expect(store.ping()).resolves.toBeUndefined();
    });
  });
}
