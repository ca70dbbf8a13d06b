import type { Redis } from 'ioredis';

/** Rejects when Redis does not answer PING within timeoutMs (may be shorter than commandTimeout). */
export async function pingRedis(redis: Redis, timeoutMs: number): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`Redis PING timed out after ${timeoutMs} ms`)), timeoutMs);
  });
  try {
    const reply = await Promise.race([redis.ping(), timeout]);
    if (reply !== 'PONG') throw new Error(`Unexpected PING reply: ${String(reply)}`);
  } finally {
    clearTimeout(timer);
  }
}
