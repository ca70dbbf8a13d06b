import { isIP } from 'node:net';
import { CallSignalling, SIP_REASON } from './call-signalling';
import { Classified, classify, FAILURE_CLASSES } from '../../shared/failure-taxonomy';
import { instant, Invalid, oneOf, optionalInt, optionalText } from './record-fields';

export const SIGNALLING_FIELDS = [
  'invite_at',
  'ringing_at',
  'answered_at',
  'sip_code',
  'sip_reason',
  'q850_cause',
  'failure_class',
  'retryable',
  'source_address',
] as const;

/**
 * The gateway's signalling facts of one record. With a `sip_code`, the failure taxonomy gives the
 * class, the retry flag and (when the record has no `status`) the status; a class or flag the
 * record states itself is kept (a media server may know better why a call failed).
 */
export function signallingOf(
  raw: Record<string, unknown>,
  call: { start: Date; end: Date | null; disconnectReason: string | null },
): { fields: CallSignalling; classified: Classified | null } {
  const inviteAt = instant(raw.invite_at, 'invite_at', false);
  const ringingAt = instant(raw.ringing_at, 'ringing_at', false);
  const answeredAt = instant(raw.answered_at, 'answered_at', false);
  const first = inviteAt ?? call.start;
  for (const [field, at] of [
    ['ringing_at', ringingAt],
    ['answered_at', answeredAt],
  ] as const) {
    if (at && at.getTime() < first.getTime())
      throw new Invalid('invalid_field', `${field} is before ${inviteAt ? 'invite_at' : 'start_time'}`);
    if (at && call.end && at.getTime() > call.end.getTime())
      throw new Invalid('invalid_field', `${field} is after end_time`);
  }
  const sipCode = optionalInt(raw.sip_code, 'sip_code', 100, 699);
  const q850Cause = optionalInt(raw.q850_cause, 'q850_cause', 1, 127);
  const classified =
    sipCode === null
      ? null
      : classify({ sipCode, answered: answeredAt !== null, disconnectReason: call.disconnectReason, q850Cause });
  const stated = raw.failure_class === undefined ? null : oneOf(raw.failure_class, 'failure_class', FAILURE_CLASSES);
  if (raw.retryable !== undefined && raw.retryable !== null && typeof raw.retryable !== 'boolean')
    throw new Invalid('invalid_field', 'retryable must be true or false');
  return {
    classified,
    fields: {
      invite_at: inviteAt,
      ringing_at: ringingAt,
      answered_at: answeredAt,
      sip_code: sipCode,
      sip_reason: optionalText(raw.sip_reason, 'sip_reason', SIP_REASON),
      q850_cause: q850Cause,
      failure_class: stated ?? classified?.failure_class ?? null,
      retryable: (raw.retryable as boolean | null | undefined) ?? classified?.retryable ?? null,
      source_address: sourceAddress(raw.source_address),
    },
  };
}

function sourceAddress(value: unknown): string | null {
  if (value === undefined || value === null) return null;
  if (typeof value !== 'string' || value.length > 45 || isIP(value) === 0)
    throw new Invalid('invalid_field', 'source_address must be an IPv4 or IPv6 address');
  return value;
}
