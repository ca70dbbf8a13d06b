import { RecordCache } from '../../../src/infrastructure/read-model/record-cache';

describe('RecordCache', () => {
  let now = 0;
  let usable = true;
  const cache = (ttlMs = 1000) =>
    new RecordCache({
      ttlMs,
      covers: (key) => key.startsWith('trunk:'),
      maxEntries: 10,
      maxChars: 1000,
      usable: () => usable,
      now: () => now,
    });
  beforeEach(() => {
    now = 0;
    usable = true;
  });

  it('keeps a copy until its TTL, strings and hashes apart, misses included', () => {
    const records = cache();
    records.set('string', 'trunk:1', 'v1', records.ticket());
    records.set('hash', 'trunk:1', { a: '1' }, records.ticket());
    records.set('string', 'trunk:2', null, records.ticket());
    expect([
      records.get('string', 'trunk:1'),
      records.get('hash', 'trunk:1'),
      records.get('string', 'trunk:2'),
    ]).toEqual(['v1', { a: '1' }, null]);
    now = 999;
    expect(records.get('string', 'trunk:1')).toBe('v1');
    now = 1000;
    expect(records.get('string', 'trunk:1')).toBeUndefined();
  });

  it('refuses a fill whose read started before a drop (the value may be from before the write)', () => {
    const records = cache();
    const ticket = records.ticket();
    records.drop(['trunk:other']);
    records.set('string', 'trunk:1', 'old', ticket);
    expect(records.get('string', 'trunk:1')).toBeUndefined();
    records.set('string', 'trunk:1', 'new', records.ticket());
    expect(records.get('string', 'trunk:1')).toBe('new');
    records.drop(['trunk:1']);
    expect([records.get('string', 'trunk:1'), records.get('hash', 'trunk:1')]).toEqual([undefined, undefined]);
  });

  it('neither serves nor keeps copies while unusable (bus away), nor when its TTL is 0', () => {
    const records = cache();
    records.set('string', 'trunk:1', 'v1', records.ticket());
    usable = false;
    expect(records.get('string', 'trunk:1')).toBeUndefined();
    records.set('string', 'trunk:2', 'v2', records.ticket());
    usable = true;
    expect(records.get('string', 'trunk:2')).toBeUndefined();
    const off = cache(0);
    off.set('string', 'trunk:1', 'v1', off.ticket());
    expect([off.covers('trunk:1'), off.get('string', 'trunk:1')]).toEqual([false, undefined]);
  });

  it('hands out hash copies that cannot be changed in place', () => {
    const records = cache();
    const read = { a: '1' };
    records.set('hash', 'trunk:1', read, records.ticket());
    read.a = 'changed by the reader';
    const copy = records.get('hash', 'trunk:1') as Record<string, string>;
    expect(copy).toEqual({ a: '1' });
    expect(Object.isFrozen(copy)).toBe(true);
  });

  it('stays within its bound of characters', () => {
    const records = cache();
    for (let i = 0; i < 5; i++) records.set('string', `trunk:${i}`, 'x'.repeat(300), records.ticket());
    expect(records.size).toBeLessThanOrEqual(3);
    expect(records.get('string', 'trunk:4')).toBe('x'.repeat(300));
  });

  describe('decoded copies', () => {
    const counting = () => {
      const calls: unknown[] = [];
      const decode = (value: unknown) => {
        calls.push(value);
        return { parsed: JSON.parse(value as string) as unknown, list: [1] };
      };
      return { calls, decode };
    };

    it('decodes a copy once and hands every reader the same frozen result', () => {
      const records = cache();
      const { calls, decode } = counting();
      records.set('string', 'trunk:1', '{"a":1}', records.ticket());
      const first = records.decoded('string', 'trunk:1', '{"a":1}', decode);
      const second = records.decoded('string', 'trunk:1', records.get('string', 'trunk:1') ?? null, decode);
      expect(second).toBe(first);
      expect(first).toEqual({ parsed: { a: 1 }, list: [1] });
      expect(calls).toHaveLength(1);
      expect(Object.isFrozen(first) && Object.isFrozen(first.list) && Object.isFrozen(first.parsed)).toBe(true);
    });

    it('decodes afresh, and keeps nothing, for a value that is not the copy', () => {
      const records = cache();
      const { calls, decode } = counting();
      records.set('string', 'trunk:1', '{"a":1}', records.ticket());
      // e.g. read from the store by the gate's script while the copy is older
      expect(records.decoded('string', 'trunk:1', '{"a":2}', decode).parsed).toEqual({ a: 2 });
      expect(records.decoded('string', 'trunk:2', '{"a":3}', decode).parsed).toEqual({ a: 3 });
      expect(records.decoded('string', 'trunk:1', '{"a":1}', decode).parsed).toEqual({ a: 1 });
      expect(records.decoded('string', 'trunk:1', '{"a":1}', decode).parsed).toEqual({ a: 1 });
      expect(calls).toEqual(['{"a":2}', '{"a":3}', '{"a":1}']);
    });

    it('gives no stale decoded copy after a write: it leaves with the copy it was made from', () => {
      const records = cache();
      const { decode } = counting();
      records.set('string', 'trunk:1', '{"v":1}', records.ticket());
      expect(records.decoded('string', 'trunk:1', '{"v":1}', decode).parsed).toEqual({ v: 1 });
      records.drop(['trunk:1']);
      expect(records.get('string', 'trunk:1')).toBeUndefined();
      records.set('string', 'trunk:1', '{"v":2}', records.ticket());
      expect(records.decoded('string', 'trunk:1', '{"v":2}', decode).parsed).toEqual({ v: 2 });
      records.clear();
      records.set('string', 'trunk:1', '{"v":3}', records.ticket());
      expect(records.decoded('string', 'trunk:1', '{"v":3}', decode).parsed).toEqual({ v: 3 });
      now = 1000;
      expect(records.get('string', 'trunk:1')).toBeUndefined();
    });

    it('matches a hash copy by the very object it handed out', () => {
      const records = cache();
      let calls = 0;
      const decode = (value: unknown) => ({ calls: ++calls, value });
      records.set('hash', 'trunk:1', { id: 'a' }, records.ticket());
      const copy = records.get('hash', 'trunk:1') ?? null;
      expect(records.decoded('hash', 'trunk:1', copy, decode)).toBe(records.decoded('hash', 'trunk:1', copy, decode));
      expect(records.decoded('hash', 'trunk:1', { id: 'a' }, decode).calls).toBe(2);
    });

    it('keeps nothing when the decoder throws, and a decoder of its own per function', () => {
      const records = cache();
      records.set('string', 'trunk:1', 'not json', records.ticket());
      const failing = (value: unknown) => JSON.parse(value as string) as unknown;
      expect(() => records.decoded('string', 'trunk:1', 'not json', failing)).toThrow(SyntaxError);
      expect(() => records.decoded('string', 'trunk:1', 'not json', failing)).toThrow(SyntaxError);
      const length = (value: unknown) => (value as string).length;
      expect(records.decoded('string', 'trunk:1', 'not json', length)).toBe(8);
      expect(records.get('string', 'trunk:1')).toBe('not json');
    });

    it('counts a decoded copy against the bound of characters', () => {
      const records = cache();
      const { decode } = counting();
      for (let i = 0; i < 3; i++) records.set('string', `trunk:${i}`, `"${'x'.repeat(290)}"`, records.ticket());
      expect(records.size).toBe(3);
      for (let i = 0; i < 3; i++) records.decoded('string', `trunk:${i}`, `"${'x'.repeat(290)}"`, decode);
      // 3 × (7 + 2 × 293) > 1000: the least recently used copies went.
      expect(records.size).toBe(1);
      expect(records.get('string', 'trunk:2')).toBe(`"${'x'.repeat(290)}"`);
    });
  });
});
