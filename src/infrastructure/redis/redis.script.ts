import type { Redis } from 'ioredis';

/**
 * A Lua script as a function: its arguments (keys first) and what the script returns. An array
 * argument is sent as its elements (ioredis flattens one level): a long argument list passes as
 * one array, as a spread it would overflow the call stack.
 */
export type ScriptArg = string | number | readonly string[];
export type RedisScript<Args extends readonly ScriptArg[], Reply> = (...args: Args) => Promise<Reply>;

/**
 * Registers a Lua script with ioredis's defineCommand (EVALSHA, EVAL again after a NOSCRIPT) and
 * returns it bound to this client. defineCommand adds the method at run time, so ioredis cannot
 * type it: Args and Reply are the script's own declaration, kept beside its Lua.
 */
export function defineScript<Args extends readonly ScriptArg[], Reply>(
  redis: Redis,
  name: string,
  script: { lua: string; numberOfKeys: number; readOnly?: boolean },
): RedisScript<Args, Reply> {
  redis.defineCommand(name, script);
  const command: unknown = Reflect.get(redis, name);
  if (typeof command !== 'function') throw new Error(`ioredis did not define the script command ${name}`);
  return (...args) => command.apply(redis, args) as Promise<Reply>;
}
