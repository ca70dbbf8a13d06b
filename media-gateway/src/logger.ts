import pino, { type Logger } from 'pino';
import type { Settings } from './settings';

/** The gateway's logger, the same on the main thread and in every media worker: keys never reach a line. */
export function gatewayLogger(settings: Pick<Settings, 'logLevel'>, bindings: Record<string, unknown> = {}): Logger {
  return pino({
    level: settings.logLevel,
    base: { service: 'media-gateway', ...bindings },
    redact: {
      paths: ['gatewayKey', '*.gatewayKey', 'authorization', '*.authorization', '*.api_key', '*.apiKey'],
      censor: '[redacted]',
    },
  });
}
