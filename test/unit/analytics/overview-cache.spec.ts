import type { OverviewRow } from '../../../src/analytics/read/analytics.sql';
import { OverviewCache } from '../../../src/analytics/read/overview-cache';

const HOUR = 3_600_000;
const row = (calls: number): OverviewRow => ({
  kind: 'total',
  key: '',
  pos: 0,
  v: [calls],
  loss: 0,
  codecs: [[], []],
  names: [],
  edge: 0,
});

/** A cache over the hours [10, 20) of account a, filled from a read that started at `ticket`. */
function filled(cache: OverviewCache, key = 'k', accountId = 'a', ticket = cache.ticket()): void {
  cache.set(key, accountId, 10 * HOUR, 20 * HOUR, [row(1)], ticket);
}

describe('the overview whole-hours cache', () => {
  it('keeps a copy until a write to one of its hours drops it', () => {
    const cache = new OverviewCache({ ttlMs: 60_000, maxRows: 100 });
    filled(cache);
    cache.drop('a', [9 * HOUR, 20 * HOUR]); // the edges' hours, outside the copy
    expect(cache.get('k')).toEqual([row(1)]);
    cache.drop('b', [12 * HOUR]); // another account
    expect(cache.get('k')).toEqual([row(1)]);
    cache.drop('a', [19 * HOUR]);
    expect(cache.get('k')).toBeUndefined();
  });

  it("keeps an edge copy's moving instant with its rows, replaced by the next fill", () => {
    const cache = new OverviewCache({ ttlMs: 60_000, maxRows: 100 });
    cache.set('edge', 'a', 10 * HOUR, 11 * HOUR, [row(3)], cache.ticket(), 10 * HOUR + 1_234);
    expect(cache.entry('edge')).toEqual(expect.objectContaining({ rows: [row(3)], moving: 10 * HOUR + 1_234 }));
    cache.set('edge', 'a', 10 * HOUR, 11 * HOUR, [row(2)], cache.ticket(), 10 * HOUR + 9_000);
    expect(cache.entry('edge')).toEqual(expect.objectContaining({ rows: [row(2)], moving: 10 * HOUR + 9_000 }));
    expect(cache.get('edge')).toEqual([row(2)]);
    cache.drop('a', [10 * HOUR]);
    expect(cache.entry('edge')).toBeUndefined();
  });

  it('refuses the fill of a read that a drop of its hours overtook, and keeps one that only other hours overtook', () => {
    const cache = new OverviewCache({ ttlMs: 60_000, maxRows: 100 });
    const before = cache.ticket();
    cache.drop('a', [15 * HOUR]);
    filled(cache, 'k', 'a', before);
    expect(cache.get('k')).toBeUndefined();
    const again = cache.ticket();
    cache.drop('a', [25 * HOUR]);
    cache.drop('b', [15 * HOUR]);
    filled(cache, 'k', 'a', again);
    expect(cache.get('k')).toEqual([row(1)]);
  });

  it('forgets everything on clear, fills under way included', () => {
    const cache = new OverviewCache({ ttlMs: 60_000, maxRows: 100 });
    filled(cache, 'k1');
    const before = cache.ticket();
    cache.clear();
    filled(cache, 'k2', 'a', before);
    expect(cache.get('k1')).toBeUndefined();
    expect(cache.get('k2')).toBeUndefined();
    filled(cache, 'k3');
    expect(cache.get('k3')).toEqual([row(1)]);
  });

  it('trusts a copy for the TTL only, and not at all while unusable or disabled', () => {
    let now = 0;
    let usable = true;
    const cache = new OverviewCache({ ttlMs: 1000, maxRows: 100, now: () => now, usable: () => usable });
    filled(cache);
    usable = false;
    expect(cache.get('k')).toBeUndefined();
    usable = true;
    now = 999;
    expect(cache.get('k')).toEqual([row(1)]);
    now = 1000;
    expect(cache.get('k')).toBeUndefined();
    const disabled = new OverviewCache({ ttlMs: 0, maxRows: 100 });
    filled(disabled);
    expect(disabled.get('k')).toBeUndefined();
  });

  it('refuses fills older than the drops it still remembers', () => {
    const cache = new OverviewCache({ ttlMs: 60_000, maxRows: 100 });
    const before = cache.ticket();
    for (let i = 0; i < 1001; i++) cache.drop('b', [i * HOUR]);
    filled(cache, 'k', 'a', before);
    expect(cache.get('k')).toBeUndefined();
  });
});
