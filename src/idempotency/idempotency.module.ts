import { DynamicModule, Module } from '@nestjs/common';
import type { Redis } from 'ioredis';
import { REDIS } from '../infrastructure/infrastructure.module';
import { IDEMPOTENCY_STORE, IdempotencyStore } from './idempotency-store.port';
import { IdempotencyGuard } from './idempotency.guard';
import { IDEMPOTENCY_SETTINGS, IdempotencySettings } from './idempotency.settings';
import { MemoryIdempotencyStore } from './memory.idempotency-store';
import { RedisIdempotencyStore } from './redis.idempotency-store';

/**
 * Idempotency-Key on every POST: the guard (hooked into Fastify by app.factory.ts) and its store,
 * in Redis when REDIS_URL is set (shared by every instance), in process memory otherwise.
 */
@Module({})
export class IdempotencyModule {
  /** `infrastructure` is imported so that the shared Redis client closes after this module. */
  static forRoot(settings: IdempotencySettings, infrastructure: DynamicModule): DynamicModule {
    return {
      module: IdempotencyModule,
      imports: [infrastructure],
      providers: [
        { provide: IDEMPOTENCY_SETTINGS, useValue: settings },
        {
          provide: IDEMPOTENCY_STORE,
          inject: [REDIS],
          useFactory: (redis: Redis | null): IdempotencyStore =>
            redis ? new RedisIdempotencyStore(redis, settings.namespace) : new MemoryIdempotencyStore(),
        },
        IdempotencyGuard,
      ],
      exports: [IdempotencyGuard],
    };
  }
}
