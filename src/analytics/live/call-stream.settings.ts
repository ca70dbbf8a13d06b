/** The live call stream's settings (CALL_STREAM_*, docs/analytics.md "Calls as they happen"). */
export interface CallStreamSettings {
  /** How often an account's reader (its streams' one poll) reads the store when no notice woke it (a missed notice only waits this long). */
  pollMs: number;
  /** A comment line after this long without an event, so proxies keep the connection open. */
  heartbeatMs: number;
  /** Bytes the service holds for a stream the client is not reading; beyond, the stream is cut. */
  maxBufferBytes: number;
}

export const CALL_STREAM_SETTINGS = Symbol('CallStreamSettings');
