import { isIP } from 'node:net';
import { SIP_REASON } from '../../calls/ingestion/call-signalling';
import { CALLER } from '../../calls/ingestion/caller';
import {
  fieldsOf,
  instant,
  Invalid,
  InvalidCode,
  judge,
  oneOf,
  optionalInt,
  optionalText,
  text,
} from '../../calls/ingestion/record-fields';
import { Rejection, REJECTION_REASONS } from '../rejection';

export type RejectionVerdict = { ok: true; rejection: Rejection } | { ok: false; code: InvalidCode; message: string };

const ID = /^rej_[A-Za-z0-9_-]{1,64}$/;
const TRUNK_ID = /^conn_[A-Za-z0-9]{1,64}$/;
const SIP_USERNAME = /^[A-Za-z0-9-]{1,64}$/;
const KNOWN = new Set([
  'id',
  'at',
  'reason',
  'sip_code',
  'sip_reason',
  'source_address',
  'sip_username',
  'from',
  'to',
  'trunk_id',
]);

/**
 * One rejection, judged on its own. What the gateway decides (id, time, code, reason, source) must
 * be well formed or the record is refused; what the carrier sent (user name, from, to) is kept
 * only in the accepted forms and otherwise left empty: junk from a carrier never costs the log
 * its entry, and never reaches a query or a log line as sent.
 */
export function validateRejection(input: unknown): RejectionVerdict {
  const verdict = judge(() => parse(input));
  return verdict.ok ? { ok: true, rejection: verdict.value } : verdict;
}

function parse(input: unknown): Rejection {
  const raw = fieldsOf(input, KNOWN, 'rejection');
  const sipCode = optionalInt(raw.sip_code, 'sip_code', 300, 699);
  if (sipCode === null) throw new Invalid('missing_required_field', 'sip_code is required');
  return {
    id: text(raw.id, 'id', ID, 'id must be rej_ followed by 1-64 letters, digits, _ or -'),
    at: instant(raw.at, 'at', true)!,
    reason: oneOf(raw.reason, 'reason', REJECTION_REASONS),
    sip_code: sipCode,
    sip_reason: optionalText(raw.sip_reason, 'sip_reason', SIP_REASON),
    source_address: address(raw.source_address),
    sip_username: carrierText(raw.sip_username, 'sip_username', SIP_USERNAME),
    from: carrierText(raw.from, 'from', CALLER),
    to: carrierText(raw.to, 'to', CALLER),
    trunk_id:
      raw.trunk_id === undefined || raw.trunk_id === null
        ? null
        : text(raw.trunk_id, 'trunk_id', TRUNK_ID, 'trunk_id must be a trunk id (conn_…)'),
  };
}

function address(value: unknown): string {
  if (value === undefined || value === null) throw new Invalid('missing_required_field', 'source_address is required');
  if (typeof value !== 'string' || value.length > 45 || isIP(value) === 0)
    throw new Invalid('invalid_field', 'source_address must be an IPv4 or IPv6 address');
  return value;
}

function carrierText(value: unknown, field: string, pattern: RegExp): string {
  if (value === undefined || value === null) return '';
  if (typeof value !== 'string') throw new Invalid('invalid_field', `${field} must be a string`);
  return pattern.test(value) ? value : '';
}
