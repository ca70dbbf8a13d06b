/** The slice of a pino logger the event-store adapters use (they never import the logging module). */
export interface EventStoreLogger {
  info(obj: object, msg: string): void;
  warn(obj: object, msg: string): void;
}

export const silentLogger: EventStoreLogger = { info: () => undefined, warn: () => undefined };

/** Connection strings may carry a password (`scheme://user:secret@host`); messages never do. */
export function redactCredentials(text: string): string {
  return text.replace(/([a-z][a-z0-9+.-]*:\/\/[^:/?#@\s]*):[^@/?#\s]*@/gi, '$1:***@');
}
