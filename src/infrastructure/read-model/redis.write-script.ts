import type { Redis } from 'ioredis';
import { defineScript, RedisScript } from '../redis/redis.script';
import type { WriteOp } from './read-model-store.port';

// A batch's writes as one script call instead of a MULTI with one command per op: one command to
// build, send and parse instead of thousands (with a promise each), and just as atomic. The ops
// travel as flat arguments (no JSON: values are JSON already, and would be escaped once more):
// a one-letter kind, the key relative to ARGV[1], then the op's own arguments; hset and hdel give
// their argument count first. Arguments are read from ARGV by index, and unpack() (bounded by
// Lua's C stack, about 8000 values) only ever sees 1000 at a time, so a batch of any size is
// still one call, hence one atomic unit. Like EXEC, a failing op (WRONGTYPE) does not stop the
// others (pcall); the first error is the reply. Keys are built inside the script: fine on one
// Redis, not on Redis Cluster (as the page script).
const WRITE_LUA = `
local prefix, i, n, failure = ARGV[1], 2, #ARGV, nil
while i <= n do
  local kind, key, reply = ARGV[i], prefix .. ARGV[i + 1], nil
  if kind == 's' then reply = redis.pcall('SET', key, ARGV[i + 2]); i = i + 3
  elseif kind == 'd' then reply = redis.pcall('DEL', key); i = i + 2
  elseif kind == 'z' then reply = redis.pcall('ZADD', key, ARGV[i + 2], ARGV[i + 3]); i = i + 4
  elseif kind == 'r' then reply = redis.pcall('ZREM', key, ARGV[i + 2]); i = i + 3
  elseif kind == 'h' or kind == 'x' then
    local command, last = kind == 'h' and 'HSET' or 'HDEL', i + 2 + tonumber(ARGV[i + 2])
    for from = i + 3, last, 1000 do
      reply = redis.pcall(command, key, unpack(ARGV, from, math.min(from + 999, last)))
      if type(reply) == 'table' and reply.err then break end
    end
    i = last + 1
  else
    return redis.error_reply('unknown read-model write op ' .. tostring(kind))
  end
  if failure == nil and type(reply) == 'table' and reply.err then failure = reply end
end
if failure then return failure end
return 1`;

export type WriteScript = RedisScript<[args: string[]], number>;

export function defineWriteScript(redis: Redis): WriteScript {
  return defineScript(redis, 'trunklineReadModelWrite', { lua: WRITE_LUA, numberOfKeys: 0 });
}

/** The script's arguments for ops whose keys are relative to `prefix`; field-less hset/hdel are left out. */
export function writeScriptArgs(prefix: string, ops: readonly WriteOp[]): string[] {
  const args = [prefix];
  for (const op of ops) {
    switch (op.op) {
      case 'set':
        args.push('s', op.key, op.value);
        break;
      case 'del':
        args.push('d', op.key);
        break;
      case 'hset': {
        const fields = Object.entries(op.fields);
        if (fields.length === 0) break;
        args.push('h', op.key, String(fields.length * 2));
        for (const [field, value] of fields) args.push(field, value);
        break;
      }
      case 'hdel':
        if (op.fields.length === 0) break;
        args.push('x', op.key, String(op.fields.length));
        for (const field of op.fields) args.push(field);
        break;
      case 'zadd':
        // String(number) is the shortest text that reads back as the same double.
        args.push('z', op.key, String(op.score), op.member);
        break;
      case 'zrem':
        args.push('r', op.key, op.member);
        break;
    }
  }
  return args;
}
