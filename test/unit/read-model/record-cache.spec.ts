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
});
