import type { ProjectionStatus } from './projection-runner';

/**
 * How the read models stand, for those that must not answer from them while they are being
 * rebuilt or restored (the authenticator, ingestion's trunk lookup) and for readiness. Fulfilled by
 * the read models' runner (src/read-models/), bound in app.module.ts, so these readers know the
 * status without knowing which projections there are.
 */
export interface ReadModelStatus {
  /**
   * True while the read models are being restored (the store lost what this instance saw
   * applied, or they are well behind the event store): a key missing may only be missing for now.
   */
  restoring(): Promise<boolean>;
  /** The read models' runner: its checkpoint, lag and whether it has caught up. */
  status(): Promise<ProjectionStatus>;
}

export const READ_MODEL_STATUS = Symbol('ReadModelStatus');
