/**
 * What an API key may do and which environment it belongs to: the vocabulary the write side
 * decides with, the gate authorizes with and the read side answers with. `gateway` is the
 * platform credential of a SIP gateway: like `admin` it belongs to no account, and it may look up
 * any trunk and send records for any account (docs/sip-gateway.md). `audit` reads its account's
 * audit log (`/v1/audit-events`) and nothing else; `full` includes it (docs/audit.md).
 */
export const SCOPES = ['full', 'read', 'ingest', 'admin', 'gateway', 'audit'] as const;
export type Scope = (typeof SCOPES)[number];
export type Environment = 'live' | 'test';

/** Scopes of keys that belong to no account (issued with `account_id` absent, alone in their key). */
export const PLATFORM_SCOPES: readonly Scope[] = ['admin', 'gateway'];
