import type { WriteRequest } from '../lib/http-load';

// Shapes the offline validator (PROVIDER_VALIDATION=format) accepts; never a real key.
const OPENAI_KEY = `sk-bench-${'a1B2'.repeat(10)}`;

/**
 * POST /v1/trunks with a new name and sip_username each time: `prefix` keeps this run's names
 * apart from any other run's (sip usernames are unique across accounts).
 */
export function createTrunkRequests(prefix: string): WriteRequest {
  let sequence = 0;
  return {
    method: 'POST',
    expectedStatus: 201,
    next() {
      const n = (sequence++).toString(36);
      const body = {
        name: `Bench ${prefix} ${n}`,
        ai_provider: 'openai',
        sip_username: `b-${prefix}-${n}`,
        sip_password: 'correct-horse-battery',
        openai_api_key: OPENAI_KEY,
      };
      return { path: '/v1/trunks', body: JSON.stringify(body) };
    },
  };
}

/**
 * PATCH /v1/trunks/{id} with a system_prompt never sent before, so every request records a
 * TrunkUpdated event. Round robin over the trunks: with fewer clients than trunks, two
 * requests in flight never aim at the same stream, so no version conflict is measured.
 */
export function updateTrunkRequests(trunkIds: string[]): WriteRequest {
  if (trunkIds.length === 0) throw new Error('no trunks to update');
  let sequence = 0;
  return {
    method: 'PATCH',
    expectedStatus: 200,
    next() {
      const n = sequence++;
      const id = trunkIds[n % trunkIds.length];
      return {
        path: `/v1/trunks/${encodeURIComponent(id)}`,
        body: JSON.stringify({ system_prompt: `You are bench agent revision ${n}.` }),
      };
    },
  };
}
