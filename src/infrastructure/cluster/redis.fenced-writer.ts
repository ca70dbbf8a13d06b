import type { Redis } from 'ioredis';
import type { AppliedCount, CheckpointTarget, FencedWriter } from './cluster.port';

export type { AppliedCount, CheckpointTarget } from './cluster.port';
import type { WriteOp } from '../read-model/read-model-store.port';
import { defineScript, RedisScript } from '../redis/redis.script';
import { FencedOffError, LeaderTerm } from './leader-lease.port';
import { leaseKeys } from './lease-keys';

// One script: the lease check, the writes, the checkpoint and its announcement are one atomic
// step, so a leader deposed while paused (GC, SIGSTOP, a slow network) can never write after its
// successor read the checkpoint. Keys other than the lease are built inside the script (like the
// read-model store's page script): fine on one Redis, not on Redis Cluster.
// Scores travel as strings: Lua numbers print with 14 significant digits.
// The announcement (the announced key, when the target has one, and the PUBLISH) can be left to a
// later announce(): a leader whose instances hold copies of records drops them in between.
// Returns 1 when written, 0 when the lease is no longer this term's (nothing written).
const WRITE_LUA = `
if redis.call('GET', KEYS[1]) ~= ARGV[1] then return 0 end
local prefix = ARGV[2]
for _, op in ipairs(cjson.decode(ARGV[3])) do
  local kind, key = op[1], prefix .. op[2]
  if kind == 'set' then redis.call('SET', key, op[3])
  elseif kind == 'del' then redis.call('DEL', key)
  elseif kind == 'hset' then redis.call('HSET', key, unpack(op[3]))
  elseif kind == 'hdel' then redis.call('HDEL', key, unpack(op[3]))
  elseif kind == 'zadd' then redis.call('ZADD', key, op[3], op[4])
  elseif kind == 'zrem' then redis.call('ZREM', key, op[3])
  end
end
if ARGV[4] ~= '' then redis.call('SET', ARGV[4], ARGV[5]) end
if ARGV[9] ~= '' then redis.call('SET', ARGV[9], ARGV[5]) end
if ARGV[6] ~= '' then redis.call('PUBLISH', ARGV[6], ARGV[5]) end
if ARGV[7] ~= '' then redis.call('HINCRBY', ARGV[7], 'events', ARGV[8]) end
return 1`;

type WriteCommand = RedisScript<string[], number>;

/** Writes that only the current leader of a lease may make, checked in the same script. */
export class RedisFencedWriter implements FencedWriter {
  private readonly command: WriteCommand;

  constructor(
    redis: Redis,
    /** Namespace of the leases (REDIS_NAMESPACE). */
    private readonly leaseNamespace: string,
  ) {
    this.command = defineScript(redis, 'trunklineFencedWrite', { numberOfKeys: 1, lua: WRITE_LUA });
  }

  /** Read-model writes (keys relative to `prefix`) and the checkpoint after them, announced unless `deferAnnouncement`. */
  async write(
    term: LeaderTerm,
    prefix: string,
    ops: WriteOp[],
    checkpoint: CheckpointTarget & { value: string },
    applied?: AppliedCount,
    deferAnnouncement = false,
  ): Promise<void> {
    await this.run(term, prefix, ops.filter(hasEffect).map(encode), checkpoint, applied, !deferAnnouncement);
  }

  /** Only the checkpoint: for a projection whose writes go elsewhere (ClickHouse), or a deferred announcement. */
  async announce(term: LeaderTerm, checkpoint: CheckpointTarget & { value: string }): Promise<void> {
    await this.run(term, '', [], checkpoint, undefined, true);
  }

  private async run(
    term: LeaderTerm,
    prefix: string,
    ops: unknown[],
    checkpoint: CheckpointTarget & { value: string },
    applied: AppliedCount | undefined,
    announce: boolean,
  ): Promise<void> {
    const lease = leaseKeys(this.leaseNamespace, term.name).lease;
    const count = applied ? [applied.key, String(applied.events)] : ['', '0'];
    const written = await this.command(
      lease,
      term.leaseValue,
      prefix,
      JSON.stringify(ops),
      checkpoint.key,
      checkpoint.value,
      announce ? checkpoint.channel : '',
      ...count,
      announce ? (checkpoint.announcedKey ?? '') : '',
    );
    if (Number(written) !== 1) {
      term.resign('a fenced write was refused');
      throw new FencedOffError(term.name);
    }
  }
}

function encode(op: WriteOp): unknown[] {
  switch (op.op) {
    case 'set':
      return ['set', op.key, op.value];
    case 'del':
      return ['del', op.key];
    case 'hset':
      return ['hset', op.key, Object.entries(op.fields).flat()];
    case 'hdel':
      return ['hdel', op.key, op.fields];
    case 'zadd':
      return ['zadd', op.key, String(op.score), op.member];
    case 'zrem':
      return ['zrem', op.key, op.member];
  }
}

// Redis refuses HSET/HDEL without fields; the read-model store drops such no-ops the same way.
function hasEffect(op: WriteOp): boolean {
  if (op.op === 'hset') return Object.keys(op.fields).length > 0;
  if (op.op === 'hdel') return op.fields.length > 0;
  return true;
}
