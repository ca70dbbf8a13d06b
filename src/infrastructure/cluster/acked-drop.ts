import type { Logger } from 'pino';
import type { MessageBus } from './cluster.port';

/** What an acknowledged drop is about, for its log lines: `record` / `RECORD_CACHE_TTL_MS`, say. */
export interface DropTopic {
  what: string;
  ttlSetting: string;
}

/**
 * Publishes a drop of cached copies and waits until every listening instance acknowledged it.
 * Not acknowledged in time (or not published at all) is logged, not thrown: the copies' TTL is
 * then the bound. Shared by the record cache's and the overview cache's invalidations.
 */
export async function publishDrop(
  bus: MessageBus,
  channel: string,
  message: string,
  timeoutMs: number,
  logger: Logger,
  topic: DropTopic,
): Promise<void> {
  const acked = await bus.publishAcked(channel, message, timeoutMs).catch((error: unknown) => {
    logger.warn({ err: { message: (error as Error)?.message } }, `${topic.what} drop: could not publish`);
    return false;
  });
  if (!acked)
    logger.warn(
      { timeoutMs },
      `${topic.what} drop: not every instance acknowledged in time; their copies expire within ${topic.ttlSetting}`,
    );
}
