import { Controller, Get, Inject, Res } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import { EVENT_STORE, EventStore } from '../infrastructure/event-store/event-store.port';
import { READ_MODEL_STORE, ReadModelStore } from '../infrastructure/read-model/read-model-store.port';
import { READ_MODEL_STATUS, type ReadModelStatus } from '../eventsourcing/read-model-status.port';

const CHECK_TIMEOUT_MS = 2000;

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

  /** Readiness: every configured store answers and the read models have caught up. */
  @Get('readyz')
  async ready(@Res({ passthrough: true }) reply: FastifyReply): Promise<object> {
    const [eventStore, readModelStore] = await Promise.all([
      check(() => this.events.ping()),
      check(() => this.readModels.ping()),
    ]);
    const projection = await withTimeout(this.projections.status()).catch(() => null);
    const checks = {
      event_store: eventStore,
      read_model_store: readModelStore,
      projections: projection ? (projection.caughtUp ? 'ok' : 'catching_up') : 'error',
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
