import fc from 'fast-check';
import type { Schema } from './openapi-operations';
import type { Hints } from './schema-arbitrary';

export type Owner = 'own' | 'other';

/** The keys the fuzzer holds, by label. `own` is the fuzz account, `other` a second account. */
export interface FuzzKeys {
  admin: string;
  /** The platform's gateway key (no account): the agent lookup and the unowned rejections. */
  gateway: string;
  own: { full: string; read: string; ingest: string; audit: string };
  other: { full: string; ingest: string };
  revoked: string;
  expired: string;
}

/**
 * The resources that exist, so that path parameters and body references name real ids (valid
 * requests reach deep code) and sometimes another account's ids (which must answer 404).
 * Pools are keyed by collection path (`/v1/trunks`), filled from every 2xx response, so routes
 * added later are covered without changing the fuzzer.
 */
export class FuzzWorld {
  private readonly pools = new Map<string, Record<Owner, string[]>>();
  private readonly deleted = new Set<string>();
  /** Ids the fuzzer must never hand to a DELETE (its own keys, the admin key). */
  readonly protectedIds = new Set<string>(['key_admin', 'key_admin_env']);
  private counter = 0;

  constructor(
    readonly keys: FuzzKeys,
    readonly accounts: Record<Owner, string>,
  ) {}

  add(pool: string, owner: Owner, id: string): void {
    if (this.protectedIds.has(id) || this.deleted.has(id)) return;
    const entry = this.pools.get(pool) ?? { own: [], other: [] };
    if (!entry[owner].includes(id)) entry[owner].push(id);
    if (entry[owner].length > 200) entry[owner].shift();
    this.pools.set(pool, entry);
  }

  remove(id: string): void {
    this.deleted.add(id);
    for (const entry of this.pools.values())
      for (const owner of ['own', 'other'] as const) entry[owner] = entry[owner].filter((x) => x !== id);
  }

  /** An id of the pool (by a generated index), or null when the pool is empty. */
  pick(pool: string, owner: Owner, index: number): string | null {
    const ids = this.pools.get(pool)?.[owner] ?? this.subPoolFor(pool)?.[owner] ?? [];
    return ids.length ? ids[index % ids.length] : null;
  }

  /**
   * Members listed only under a parent (`/v1/webhook-endpoints/{id}/deliveries`) stand in for a
   * collection never listed at top level (`/v1/webhook-deliveries`) whose name ends the same.
   */
  private subPoolFor(pool: string): Record<Owner, string[]> | undefined {
    const last = pool.split('/').pop() ?? '';
    for (const [name, entry] of this.pools) if (name.startsWith('sub:') && last.endsWith(name.slice(4))) return entry;
    return undefined;
  }

  deletedIds(): string[] {
    return [...this.deleted];
  }

  unique(prefix: string): string {
    return `${prefix}${Date.now().toString(36)}${(this.counter++).toString(36)}`;
  }

  /** Learn ids from a 2xx answer: created resources, list items, cursors, sip usernames. */
  learn(collection: string, owner: Owner, method: string, status: number, body: unknown): void {
    if (status < 200 || status >= 300 || typeof body !== 'object' || body === null) return;
    const record = body as Record<string, unknown>;
    if (method === 'POST' && typeof record.id === 'string') this.learnItem(collection, owner, record);
    for (const value of Object.values(record)) {
      if (Array.isArray(value))
        for (const item of value)
          if (typeof item === 'object' && item !== null)
            this.learnItem(collection, owner, item as Record<string, unknown>);
    }
    const cursor = (record.pagination as Record<string, unknown> | undefined)?.next_cursor;
    if (typeof cursor === 'string') this.add('cursor', owner, cursor);
  }

  private learnItem(collection: string, owner: Owner, item: Record<string, unknown>): void {
    if (typeof item.id === 'string') this.add(collection, owner, item.id);
    if (typeof item.sip_username === 'string') this.add('sip_username', owner, item.sip_username);
    if (typeof item.trunk_id === 'string') this.add('/v1/trunks', owner, item.trunk_id);
  }

  /** Semantic generators by field name: what makes a request valid beyond its schema. */
  readonly hints: Hints = (name: string, schema: Schema) => {
    const fromPool = (pool: string, fallback: fc.Arbitrary<string>) =>
      fc.nat().chain((n) => {
        const id = this.pick(pool, 'own', n);
        return id ? fc.constant(id) : fallback;
      });
    const unique = (prefix: string) => fc.constant(null).map(() => this.unique(prefix));
    const recent = fc
      .integer({ min: -10 * 86_400_000, max: 3_600_000 })
      .map((offset) => new Date(Date.now() + offset).toISOString());
    switch (name) {
      case 'account_id':
        return fc.constantFrom(this.accounts.own, this.accounts.other);
      case 'trunk_id':
        return fromPool('/v1/trunks', fc.constant('conn_missing'));
      case 'sip_username':
        return unique('fz-');
      case 'name':
        return unique('Fuzz ');
      case 'sip_password':
        return unique('pw-fuzz-');
      case 'openai_api_key':
        return unique('sk-fuzzfuzzfuzzfuzzfuzz');
      case 'elevenlabs_api_key':
        return unique('elfuzzfuzzfuzzfuzzfuzz');
      case 'elevenlabs_agent_id':
        return fc.constant('agent_fuzz');
      case 'custom_endpoint':
        return unique('wss://agent.example.com/ws/');
      case 'url':
      case 'endpoint':
      case 'webhook_url':
        return unique('https://hooks.example.com/');
      case 'allowed_addresses':
        return fc.array(fc.constantFrom('203.0.113.7', '198.51.100.0/24', '2001:db8::/32'), { maxLength: 3 });
      case 'scopes':
        return fc.oneof(fc.subarray(['full', 'read', 'ingest'], { minLength: 1 }), fc.constant(['admin']));
      case 'expires_at':
        return fc.integer({ min: 60_000, max: 365 * 86_400_000 }).map((ms) => new Date(Date.now() + ms).toISOString());
      case 'as_of':
      case 'start_time':
      case 'end_time':
        return recent;
      case 'start_date':
      case 'end_date':
        return fc.oneof(
          recent,
          recent.map((iso) => iso.slice(0, 10)),
        );
      case 'from':
      case 'to':
        return fc.integer({ min: 1_000_000, max: 999_999_999 }).map((n) => `+1555${n}`);
      case 'cursor':
        return fromPool('cursor', fc.constant('bm90LWEtY3Vyc29y'));
      case 'id':
        return schema.type === 'string' ? unique('call_fz') : null;
      default:
        return null;
    }
  };
}
