import type { FailureClass } from '../../shared/failure-taxonomy';

/**
 * What a SIP gateway reports of a call's signalling, all optional on the wire: the times it saw
 * (INVITE received, first ringing, answer), the INVITE's final response, a Q.850 cause, and the
 * carrier's source address. The class and retry flag come from the failure taxonomy.
 */
export interface CallSignalling {
  invite_at: Date | null;
  ringing_at: Date | null;
  answered_at: Date | null;
  sip_code: number | null;
  sip_reason: string | null;
  q850_cause: number | null;
  failure_class: FailureClass | null;
  retryable: boolean | null;
  source_address: string | null;
}

export const NO_SIGNALLING: CallSignalling = {
  invite_at: null,
  ringing_at: null,
  answered_at: null,
  sip_code: null,
  sip_reason: null,
  q850_cause: null,
  failure_class: null,
  retryable: null,
  source_address: null,
};

/** A SIP reason phrase as sent (RFC 3261 allows UTF-8 text): printable, no control characters, at most 128. */
export const SIP_REASON = /^[^\p{Cc}]{1,128}$/u;
