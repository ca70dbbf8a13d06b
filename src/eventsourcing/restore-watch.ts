/** What a request notes when it starts, compared when it is answered (RestoreWatch.changedSince). */
export interface RestoreMark {
  readonly generation: number;
  readonly restoring: boolean;
}

const WATCH_MS = 200;

/**
 * This instance's knowledge of read-model restores (Redis lost its data and the replay from the
 * event store is bringing it back), as a generation that moves on every change: a restore seen
 * beginning, a restore seen ending. A request notes the mark when it starts; if a restore was
 * under way then, or one began or ended before the answer left, a "not found" it read may only
 * have been "not replayed yet". Starts are reported by the replaying runner (a resume from
 * nothing) and by checkpoints seen going back (another instance replaying); ends by a check that
 * runs while a restore is believed under way. Nothing here reads a store on a request's path.
 */
export class RestoreWatch {
  private generation = 0;
  private restoringNow = false;
  /** What showed the latest restore beginning (for the log of the answers it turned into 503). */
  private lastCause = 'none';
  private watcher: NodeJS.Timeout | null = null;
  private stopped = false;

  /** `check` asks the stores whether a restore is under way (ReadModels' lag and checkpoint test). */
  constructor(
    private readonly check: () => Promise<boolean>,
    private readonly watchMs = WATCH_MS,
  ) {}

  mark(): RestoreMark {
    return { generation: this.generation, restoring: this.restoringNow };
  }

  /** True when a restore was under way when `mark` was taken, or has begun or ended since. */
  changedSince(mark: RestoreMark): boolean {
    return mark.restoring || mark.generation !== this.generation;
  }

  /** Something showed a restore beginning: believed under way until a check says it is over. */
  begun(cause = 'a restore began'): void {
    if (!this.restoringNow) this.lastCause = cause;
    this.observe(true);
  }

  /** What showed the latest restore beginning ('none' before any did). */
  get cause(): string {
    return this.lastCause;
  }

  /** What a check found. */
  observe(restoring: boolean): void {
    if (restoring === this.restoringNow) return;
    this.restoringNow = restoring;
    this.generation += 1;
    if (restoring) this.watch();
  }

  stop(): void {
    this.stopped = true;
    if (this.watcher) clearTimeout(this.watcher);
    this.watcher = null;
  }

  /** While a restore is believed under way, checks until it is over (and so sees it end). */
  private watch(): void {
    if (this.watcher || this.stopped) return;
    const next = () => {
      this.watcher = setTimeout(() => {
        void this.check().then(
          (restoring) => {
            this.watcher = null;
            this.observe(restoring);
            if (this.restoringNow) this.watch();
          },
          () => {
            // The store is unreachable: still restoring as far as this instance can tell.
            this.watcher = null;
            this.watch();
          },
        );
      }, this.watchMs);
      this.watcher.unref();
    };
    next();
  }
}
