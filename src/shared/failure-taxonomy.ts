/**
 * The failure taxonomy of call records: one table from what the gateway saw (the INVITE's final
 * SIP code, whether the call was answered, why it ended, a Q.850 cause) to the call's status,
 * failure class and whether a retry may succeed. The same table is published in
 * docs/sip-gateway.md; the reference gateway sends the SIP facts and lets Trunkline classify.
 */
export const FAILURE_CLASSES = [
  'normal',
  'auth',
  'routing',
  'carrier',
  'agent_timeout',
  'agent_error',
  /** The agent could not be connected at all (a media gateway's WebSocket connect failed); stated by the record. */
  'agent_unreachable',
  /** The agent's provider refused our credentials (a bad or revoked key); stated by the media gateway's record. */
  'agent_auth',
  /** The agent's provider refused for quota or rate limit; stated by the media gateway's record. */
  'agent_quota',
  'network',
  'capacity',
] as const;
export type FailureClass = (typeof FAILURE_CLASSES)[number];

export interface Classified {
  status: 'connected' | 'failed' | 'disconnected';
  failure_class: FailureClass;
  retryable: boolean;
}

/** Why an answered call ended abnormally: the gateway's own timers and transport errors. */
export const ABNORMAL_ENDINGS = ['gateway_timeout', 'media_timeout', 'network_error', 'dialog_timeout'];

const failed = (failure_class: FailureClass, retryable: boolean): Classified => ({
  status: 'failed',
  failure_class,
  retryable,
});

/** Final codes of an INVITE that was not answered, by code. */
const UNANSWERED: Record<number, Classified> = {
  401: failed('auth', false),
  407: failed('auth', false),
  403: failed('routing', false),
  404: failed('routing', false),
  410: failed('routing', false),
  484: failed('routing', false),
  485: failed('routing', false),
  604: failed('routing', false),
  408: failed('agent_timeout', true),
  480: failed('agent_timeout', true),
  504: failed('agent_timeout', true),
  486: failed('capacity', true),
  600: failed('capacity', true),
  503: failed('capacity', true),
  502: failed('network', true),
  488: failed('carrier', false),
  606: failed('carrier', false),
  603: failed('agent_error', false),
  // The caller gave up before the agent answered: not a failure of anyone on the path.
  487: { status: 'disconnected', failure_class: 'normal', retryable: false },
};

/** Q.850 causes of an answered call's end that say it did not end normally. */
function classOfCause(cause: number): FailureClass | null {
  if (cause === 16 || cause === 31) return null;
  if ([17, 34, 42, 47].includes(cause)) return 'capacity';
  if ([18, 19, 102].includes(cause)) return 'agent_timeout';
  if ([27, 38, 41].includes(cause)) return 'network';
  return 'agent_error';
}

export function classify(input: {
  sipCode: number;
  answered: boolean;
  disconnectReason: string | null;
  q850Cause: number | null;
}): Classified {
  const { sipCode, answered, disconnectReason, q850Cause } = input;
  if (answered || (sipCode >= 200 && sipCode < 300)) {
    const byCause = q850Cause === null ? null : classOfCause(q850Cause);
    if (byCause) return { status: 'disconnected', failure_class: byCause, retryable: true };
    // The agent failed mid-call (its socket dropped, a protocol error): the media gateway hung up.
    if (disconnectReason === 'agent_error')
      return { status: 'disconnected', failure_class: 'agent_error', retryable: true };
    if (disconnectReason !== null && ABNORMAL_ENDINGS.includes(disconnectReason))
      return { status: 'disconnected', failure_class: 'network', retryable: true };
    return { status: 'connected', failure_class: 'normal', retryable: false };
  }
  const known = UNANSWERED[sipCode];
  if (known) return known;
  if (sipCode >= 500 && sipCode < 600) return failed('agent_error', true);
  if (sipCode >= 600) return failed('agent_error', false);
  return failed('carrier', false);
}
