import { type Redis, ReplyError } from 'ioredis';
import { closeRedisClient } from '../redis/redis.client';
import { pingRedis } from '../redis/redis.health';
import { defineScript, RedisScript } from '../redis/redis.script';
import { rankRange } from './rank-range';
import { defineWriteScript, writeScriptArgs, type WriteScript } from './redis.write-script';
import {
  type IndexPage,
  type IndexPosition,
  type Order,
  type Page,
  type ReadModelStore,
  ReadModelUnavailableError,
  type WriteOp,
} from './read-model-store.port';

// Value keys are built from members inside the script, so they are not declared in KEYS
// (fine on a single Redis; a cluster would need the index and values in one hash slot).
// MGET goes in chunks because unpack() is bounded by Lua's C stack (about 8000 values).
const PAGE_TAIL = `
local members
if ARGV[4] == 'desc' then
  members = redis.call('ZRANGE', KEYS[1], start, stop, 'REV')
else
  members = redis.call('ZRANGE', KEYS[1], start, stop)
end
local values = {}
for i = 1, #members, 1000 do
  local keys = {}
  for j = i, math.min(i + 999, #members) do keys[#keys + 1] = ARGV[1] .. members[j] end
  local chunk = redis.call('MGET', unpack(keys))
  for j = 1, #keys do values[#values + 1] = chunk[j] end
end
return {total, values}`;

const PAGE_LUA = `
local total = redis.call('ZCARD', KEYS[1])
local start, stop = ARGV[2], ARGV[3]
${PAGE_TAIL}`;

// ARGV: valuePrefix, score, member, order, count. The start rank is the cursor member's rank + 1
// while it is there with that score; otherwise where it would stand: the entries before its score
// (after it, descending) plus its ties on the member's side (Redis orders ties by member bytes).
const AFTER_START = `
local total = redis.call('ZCARD', KEYS[1])
local score, member, desc = ARGV[2], ARGV[3], ARGV[4] == 'desc'
local rank
if desc then rank = redis.call('ZREVRANK', KEYS[1], member) else rank = redis.call('ZRANK', KEYS[1], member) end
local current = redis.call('ZSCORE', KEYS[1], member)
local start
if rank and current and tonumber(current) == tonumber(score) then
  start = rank + 1
else
  local ties = redis.call('ZRANGE', KEYS[1], score, score, 'BYSCORE')
  if desc then
    start = redis.call('ZCOUNT', KEYS[1], '(' .. score, '+inf')
    for _, m in ipairs(ties) do if m > member then start = start + 1 end end
  else
    start = redis.call('ZCOUNT', KEYS[1], '-inf', '(' .. score)
    for _, m in ipairs(ties) do if m < member then start = start + 1 end end
  end
end
local stop = start + tonumber(ARGV[5]) - 1
`;

const PAGE_AFTER_LUA = `${AFTER_START}${PAGE_TAIL}`;

// The members after a position, without their values (lists whose items are hashes).
const MEMBERS_AFTER_LUA = `${AFTER_START}
local members
if desc then
  members = redis.call('ZRANGE', KEYS[1], start, stop, 'REV')
else
  members = redis.call('ZRANGE', KEYS[1], start, stop)
end
return {total, members}`;

const PAGE_COMMAND = 'trunklineReadModelPage';
const PAGE_AFTER_COMMAND = 'trunklineReadModelPageAfter';
const MEMBERS_AFTER_COMMAND = 'trunklineReadModelMembersAfter';
const SCAN_BATCH = 500;

type PageCommand = RedisScript<
  [indexKey: string, valuePrefix: string, start: number, stop: number, order: Order],
  [number, (string | null)[]]
>;

type MembersAfterCommand = RedisScript<
  [indexKey: string, unused: string, score: number, member: string, order: Order, count: number],
  [number, string[]]
>;

type PageAfterCommand = RedisScript<
  [indexKey: string, valuePrefix: string, score: number, member: string, order: Order, count: number],
  [number, (string | null)[]]
>;

export class RedisReadModelStore implements ReadModelStore {
  private readonly pageScript: PageCommand;
  private readonly pageAfterScript: PageAfterCommand;
  private readonly membersAfterScript: MembersAfterCommand;
  private readonly writeScript: WriteScript;

  constructor(
    private readonly redis: Redis,
    private readonly namespace: string,
  ) {
    this.pageScript = defineScript(redis, PAGE_COMMAND, { lua: PAGE_LUA, numberOfKeys: 1, readOnly: true });
    this.pageAfterScript = defineScript(redis, PAGE_AFTER_COMMAND, {
      lua: PAGE_AFTER_LUA,
      numberOfKeys: 1,
      readOnly: true,
    });
    this.membersAfterScript = defineScript(redis, MEMBERS_AFTER_COMMAND, {
      lua: MEMBERS_AFTER_LUA,
      numberOfKeys: 1,
      readOnly: true,
    });
    this.writeScript = defineWriteScript(redis);
  }

  get(key: string): Promise<string | null> {
    return guard(this.redis.get(this.k(key)));
  }

  async mget(keys: string[]): Promise<(string | null)[]> {
    if (keys.length === 0) return [];
    return guard(this.redis.mget(keys.map((key) => this.k(key))));
  }

  hgetall(key: string): Promise<Record<string, string>> {
    return guard(this.redis.hgetall(this.k(key)));
  }

  zcard(key: string): Promise<number> {
    return guard(this.redis.zcard(this.k(key)));
  }

  async zrange(key: string, offset: number, count: number, order: Order): Promise<string[]> {
    const range = rankRange(offset, count);
    if (!range) return [];
    // ioredis types `stop` as string only.
    const [start, stop] = [String(range[0]), String(range[1])];
    if (order === 'desc') return guard(this.redis.zrange(this.k(key), start, stop, 'REV'));
    return guard(this.redis.zrange(this.k(key), start, stop));
  }

  async page(indexKey: string, valuePrefix: string, offset: number, count: number, order: Order): Promise<Page> {
    // An empty range still needs the total; start > stop makes ZRANGE return nothing.
    const [start, stop] = rankRange(offset, count) ?? [1, 0];
    const [total, values] = await guard(this.pageScript(this.k(indexKey), this.k(valuePrefix), start, stop, order));
    return { total, values };
  }

  async pageAfter(
    indexKey: string,
    valuePrefix: string,
    after: IndexPosition,
    count: number,
    order: Order,
  ): Promise<Page> {
    if (count === 0) return { total: await this.zcard(indexKey), values: [] };
    const [total, values] = await guard(
      this.pageAfterScript(this.k(indexKey), this.k(valuePrefix), after.score, after.member, order, count),
    );
    return { total, values };
  }

  async zrangeAfter(key: string, after: IndexPosition, count: number, order: Order): Promise<IndexPage> {
    if (count === 0) return { total: await this.zcard(key), members: [] };
    const [total, members] = await guard(
      this.membersAfterScript(this.k(key), '', after.score, after.member, order, count),
    );
    return { total, members };
  }

  /** One script call: atomic like MULTI/EXEC, and like it, a failing op (WRONGTYPE) leaves the others applied. */
  async write(ops: WriteOp[]): Promise<void> {
    const args = writeScriptArgs(this.namespace, ops);
    if (args.length > 1) await guard(this.writeScript(args));
  }

  async clear(): Promise<void> {
    const match = `${escapeGlob(this.namespace)}*`;
    let cursor = '0';
    do {
      const [next, keys] = await this.redis.scan(cursor, 'MATCH', match, 'COUNT', SCAN_BATCH);
      if (keys.length > 0) await this.redis.unlink(...keys);
      cursor = next;
    } while (cursor !== '0');
  }

  ping(): Promise<void> {
    return pingRedis(this.redis, 1000);
  }

  close(): Promise<void> {
    return closeRedisClient(this.redis);
  }

  private k(key: string): string {
    return this.namespace + key;
  }
}

/**
 * Connection failures, timeouts and a closed client become ReadModelUnavailableError (503 with
 * Retry-After). A reply error (WRONGTYPE, a script error) is a bug, not an outage: it stays as is.
 */
async function guard<T>(command: Promise<T>): Promise<T> {
  try {
    return await command;
  } catch (error) {
    if (error instanceof ReplyError) throw error;
    throw new ReadModelUnavailableError(
      `read-model store unavailable: ${(error as Error)?.message ?? String(error)}`,
      error,
    );
  }
}

function escapeGlob(value: string): string {
  return value.replace(/[*?[\]\\]/g, '\\$&');
}
