/** What the webhooks and alerts feature needs of the configuration (cut in app.settings.ts). */
export interface WebhookSettings {
  /** Deliver to private and loopback addresses too (development, on-premise receivers). */
  allowPrivate: boolean;
  /** Time limit of one attempt, connect to the end of the response. */
  timeoutMs: number;
  /** Delays after each failed attempt; its length is the number of retries. */
  retryScheduleMs: number[];
  pollIntervalMs: number;
  concurrency: number;
  /** PEM file of extra CAs receivers may present. */
  caFile: string | null;
  /** Finished deliveries older than this leave the read models (their streams stay). */
  deliveryRetentionMs: number;
  retentionSweepMs: number;
  alertEvaluationIntervalMs: number;
  /** How long a write, or a first ingestion batch, waits for the webhook read models. */
  consistencyTimeoutMs: number;
}

export const WEBHOOK_SETTINGS = Symbol('WebhookSettings');
