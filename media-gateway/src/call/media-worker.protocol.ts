import type { AgentFailureClass, MediaEndReason, MediaLegOptions, MediaRemote, MediaSummary } from './ports';

/**
 * The main thread → a media worker (docs/media-gateway.md, "Media workers"). `id` names a request;
 * an open request's id names its leg from then on.
 */
export type ToWorker =
  | { t: 'take'; id: number }
  | { t: 'release'; port: number }
  | { t: 'open'; id: number; port: number; options: MediaLegOptions; timeoutMs: number }
  | { t: 'abort'; id: number }
  | { t: 'update'; id: number; remote: MediaRemote }
  | { t: 'close'; id: number; leg: number };

export interface ConnectFailure {
  failureClass: AgentFailureClass;
  retryable: boolean;
  sipCode: 480 | 503;
  phrase: string;
  message: string;
}

/** A media worker → the main thread. */
export type FromWorker =
  | { t: 'took'; id: number; port: number | null }
  | { t: 'opened'; id: number }
  | { t: 'open-failed'; id: number; failure: ConnectFailure }
  | { t: 'end'; id: number; reason: MediaEndReason; failure?: { failureClass: AgentFailureClass; retryable: boolean } }
  | { t: 'closed'; id: number; summary: MediaSummary | null };
