/** What the audit feature needs of the configuration (cut in app.settings.ts). */
export interface AuditSettings {
  /** How often accounts with new events get a checkpoint (AUDIT_CHECKPOINT_INTERVAL_MS). */
  checkpointIntervalMs: number;
}

export const AUDIT_SETTINGS = Symbol('AuditSettings');
