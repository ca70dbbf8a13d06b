import { Controller, Get, Inject, Res } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import { EVENT_STORE, EventStore } from '../infrastructure/event-store/event-store.port';
import { READ_MODEL_STORE, ReadModelStore } from '../infrastructure/read-model/read-model-store.port';
import { READ_MODEL_STATUS, type ReadModelStatus } from '../eventsourcing/read-model-status.port';

const CHECK_TIMEOUT_MS = 2000;

/**
 * How long the oldest event the read models have not applied may have waited for the instance
 * still to be ready. Under a steady stream of writes some event is nearly always unapplied for a
 * few milliseconds: "caught up" at that instant would make readiness flap. A replay or restore
 * (events recorded long before) or a stalled projection (the wait grows) is past this bound.
 */
export const READY_MAX_LAG_MS = 5000;

/** The projections' part of readiness: ok when caught up, or live and only just behind. */
export function projectionReadiness(
  projection: { caughtUp: boolean; lagMs: number } | null,
  restoring: boolean,
): 'ok' | 'catching_up' | 'error' {
  if (!projection) return 'error';
  if (restoring) return 'catching_up';
  return projection.caughtUp || projection.lagMs <= READY_MAX_LAG_MS ? 'ok' : 'catching_up';
}

@ApiExcludeController()
@Controller()
export class HealthController {
  constructor(
    @Inject(EVENT_STORE) private readonly events: EventStore,
    @Inject(READ_MODEL_STORE) private readonly readModels: ReadModelStore,
    @Inject(READ_MODEL_STATUS) private readonly projections: ReadModelStatus,
  ) {}

  /** Liveness: the process answers. */
  @Get('healthz')
  health(): { status: 'ok' } {
    return { status: 'ok' };
  }

  /**
   * Readiness: every configured store answers, the read models are not being restored and no
   * event has waited more than READY_MAX_LAG_MS to be applied.
   */
  @Get('readyz')
  async ready(@Res({ passthrough: true }) reply: FastifyReply): Promise<object> {
    const [eventStore, readModelStore] = await Promise.all([
      check(() => this.events.ping()),
      check(() => this.readModels.ping()),
    ]);
    const [projection, restoring] = await Promise.all([
      withTimeout(this.projections.status()).catch(() => null),
      withTimeout(this.projections.restoring()).catch(() => false),
    ]);
    const checks = {
      event_store: eventStore,
      read_model_store: readModelStore,
      projections: projectionReadiness(projection, restoring),
    };
    const ready = eventStore === 'ok' && readModelStore === 'ok' && checks.projections === 'ok';
    const body = {
      status: ready ? 'ready' : 'unavailable',
      checks,
      projections: projection
        ? [{ name: projection.name, lag_ms: projection.lagMs, checkpoint: projection.checkpoint }]
        : [],
    };
    if (ready) return body;
    void reply.status(503).header('Retry-After', '1');
    return { error: { code: 'service_unavailable', message: 'Not ready', status: 503 }, ...body };
  }
}

async function check(probe: () => Promise<void>): Promise<'ok' | 'error'> {
  try {
    await withTimeout(probe());
    return 'ok';
  } catch {
    return 'error';
  }
}

function withTimeout<T>(promise: Promise<T>): Promise<T> {
  return Promise.race([
    promise,
    new Promise<T>((_, reject) => setTimeout(() => reject(new Error('timeout')), CHECK_TIMEOUT_MS).unref()),
  ]);
}
