import type { LoggerService } from '@nestjs/common';
import type { FastifyBaseLogger } from 'fastify';
import pino, { Bindings, ChildLoggerOptions, DestinationStream, Level, Logger } from 'pino';

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

/**
 * Fastify's per-request logger, created only when a line is written. A pino child costs its
 * bindings' serialisation and the redaction set-up on every request; at the default level most
 * requests write nothing through it, so the child is made on the first enabled line and then
 * reused: every line still carries the request id.
 */
class LazyRequestLogger implements FastifyBaseLogger {
  private made: Logger | undefined;

  constructor(
    private readonly parent: Logger,
    private readonly own: Bindings,
    private readonly options: ChildLoggerOptions,
  ) {}

  get level(): string {
    return (this.made ?? this.parent).level;
  }

  set level(level: string) {
    this.real().level = level;
  }

  isLevelEnabled(level: string): boolean {
    return (this.made ?? this.parent).isLevelEnabled(level);
  }

  fatal(...args: unknown[]): void {
    this.write('fatal', args);
  }
  error(...args: unknown[]): void {
    this.write('error', args);
  }
  warn(...args: unknown[]): void {
    this.write('warn', args);
  }
  info(...args: unknown[]): void {
    this.write('info', args);
  }
  debug(...args: unknown[]): void {
    this.write('debug', args);
  }
  trace(...args: unknown[]): void {
    this.write('trace', args);
  }
  silent(): void {}

  child(bindings: Bindings, options?: ChildLoggerOptions): Logger {
    return this.real().child(bindings, options);
  }

  bindings(): Bindings {
    return this.real().bindings();
  }

  private write(level: Level, args: unknown[]): void {
    if (!this.isLevelEnabled(level)) return;
    (this.real()[level] as (...a: unknown[]) => void)(...args);
  }

  private real(): Logger {
    return (this.made ??= this.parent.child(this.own, this.options));
  }
}

/** Whether a request's logger writes `level`: Fastify types it without pino's isLevelEnabled. */
export function isLevelEnabled(log: FastifyBaseLogger, level: Level): boolean {
  return 'isLevelEnabled' in log && typeof log.isLevelEnabled === 'function'
    ? log.isLevelEnabled(level) === true
    : true;
}

/** Fastify's `childLoggerFactory`: see LazyRequestLogger. */
export function lazyRequestLogger(
  parent: FastifyBaseLogger,
  bindings: Bindings,
  options: ChildLoggerOptions,
): FastifyBaseLogger {
  return new LazyRequestLogger(parent as Logger, bindings, options);
}
