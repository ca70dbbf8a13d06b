import { CALL_REJECTIONS, type Expect, type HasColumnsOf } from '../infrastructure/clickhouse/schema';
/**
 * The rejection log: every INVITE a gateway refused (or that failed before an agent answered it),
 * with why. Reasons are the gateway's words for the failure taxonomy's classes
 * (docs/sip-gateway.md has the table).
 */
export const REJECTION_REASONS = [
  'auth_failed',
  'unknown_user',
  'trunk_inactive',
  'address_not_allowed',
  /** The gateway's own limit (MAX_CALLS_PER_TRUNK), never an agent's answer. */
  'over_capacity',
  'no_route',
  /** No answer from the agent at all (timeout, transport failure). */
  'agent_unreachable',
  'agent_error',
  'lookup_unavailable',
  /** The agent answered 486 Busy Here or 600 Busy Everywhere. */
  'agent_busy',
  /** The agent answered 480 Temporarily Unavailable or 503 Service Unavailable. */
  'agent_unavailable',
  /** The gateway banned the source address (a flood, repeated auth failures or unknown names). */
  'source_banned',
] as const;
export type RejectionReason = (typeof REJECTION_REASONS)[number];

/** A rejection as a gateway reports it, after validation. */
export interface Rejection {
  id: string;
  at: Date;
  reason: RejectionReason;
  sip_code: number;
  sip_reason: string | null;
  source_address: string;
  /** What the carrier sent, kept only in the accepted forms ('' otherwise). */
  sip_username: string;
  from: string;
  to: string;
  trunk_id: string | null;
}

/** A row of call_rejections. */
export interface RejectionRow {
  account_id: string;
  trunk_id: string;
  at: string;
  rejection_id: string;
  reason: string;
  sip_code: number;
  sip_reason: string;
  source_address: string;
  sip_username: string;
  from_number: string;
  to_number: string;
  ingested_at: string;
}
/** RejectionRow is call_rejections as migrated (the typecheck fails when they part). */
export type RejectionRowIsStored = Expect<HasColumnsOf<RejectionRow, typeof CALL_REJECTIONS>>;
