/**
 * A start-up problem the operator can fix: main() prints its message as one line (no stack
 * trace) and exits non-zero. The message says what happened and what to do.
 */
export class StartupError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'StartupError';
  }
}
