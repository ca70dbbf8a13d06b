/** What the exports feature needs of the configuration (cut in app.settings.ts). */
export interface ExportSettings {
  /** Where the files are written: EXPORT_DIR, by default <DATA_DIR>/exports. */
  dir: string;
  /** A completed export's file is deleted this long after completion (EXPORT_RETENTION_HOURS). */
  retentionMs: number;
  /** How often the runner looks for new jobs and expired files (EXPORT_POLL_INTERVAL_MS). */
  pollIntervalMs: number;
}

export const EXPORT_SETTINGS = Symbol('ExportSettings');

/** A job started this many times without finishing (each start cut short by a crash) fails. */
export const EXPORT_MAX_ATTEMPTS = 3;
