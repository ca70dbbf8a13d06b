import type { LoggerService } from '@nestjs/common';
import pino, { DestinationStream, Logger } from 'pino';

/**
 * Fields that may hold a secret, wherever they appear in a logged object: censored by pino
 * before serialisation, so no code path can log them by accident.
 */
export const REDACTED_PATHS = [
  'req.headers.authorization',
  'req.headers.cookie',
  'headers.authorization',
  '*.authorization',
  '*.password',
  '*.sip_password',
  '*.openai_api_key',
  '*.elevenlabs_api_key',
  '*.api_key',
  '*.key',
  '*.secret',
  '*.master_key',
  'body',
  'req.body',
];

/** The one root logger; request lines carry `request_id` through Fastify's per-request child. */
export function createRootLogger(level: string, stream?: DestinationStream): Logger {
  const options = { level, redact: { paths: REDACTED_PATHS, censor: '[redacted]' }, base: { service: 'trunkline' } };
  return stream ? pino(options, stream) : pino(options);
}

/** A logger for one part of the app, as an injectable class (DI token). */
export class AppLogger {
  constructor(readonly root: Logger) {}

  for(context: string): Logger {
    return this.root.child({ context });
  }
}

/** Nest's own messages (start-up, route mapping) through the same pino root. */
export class NestPinoLogger implements LoggerService {
  private readonly logger: Logger;

  constructor(root: Logger) {
    this.logger = root.child({ context: 'nest' });
  }

  log(message: unknown, context?: string): void {
    this.logger.debug({ nest_context: context }, String(message));
  }
  error(message: unknown, trace?: string, context?: string): void {
    this.logger.error({ nest_context: context, trace }, String(message));
  }
  warn(message: unknown, context?: string): void {
    this.logger.warn({ nest_context: context }, String(message));
  }
  debug(message: unknown, context?: string): void {
    this.logger.debug({ nest_context: context }, String(message));
  }
  verbose(message: unknown, context?: string): void {
    this.logger.trace({ nest_context: context }, String(message));
  }
}
