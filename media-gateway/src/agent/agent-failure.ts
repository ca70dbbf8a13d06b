import { AgentConnectError } from './agent.port';

/**
 * How a refused WebSocket upgrade becomes a failure class. 401/403: the agent rejects our credentials
 * (retrying will not help); 402/429: quota or rate (429 may pass later); 5xx: the agent is failing now;
 * any other status: the endpoint is not an agent we can speak to.
 */
export function classifyHttpStatus(status: number): AgentConnectError {
  if (status === 401 || status === 403)
    return new AgentConnectError('agent_auth', false, `agent answered HTTP ${status}`);
  if (status === 429) return new AgentConnectError('agent_quota', true, 'agent answered HTTP 429');
  if (status === 402) return new AgentConnectError('agent_quota', false, 'agent answered HTTP 402');
  if (status >= 500) return new AgentConnectError('agent_error', true, `agent answered HTTP ${status}`);
  return new AgentConnectError('agent_error', false, `agent answered HTTP ${status} to the WebSocket upgrade`);
}

const TIMEOUT_CODES = new Set(['ETIMEDOUT', 'ESOCKETTIMEDOUT']);
const NETWORK_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'EHOSTUNREACH', 'ENETUNREACH', 'EAI_AGAIN', 'EPIPE']);

/** A socket, DNS or TLS error before the upgrade completed. */
export function classifyHandshakeError(error: Error & { code?: string }): AgentConnectError {
  const code = error.code ?? '';
  if (TIMEOUT_CODES.has(code) || /timed? ?out/i.test(error.message))
    return new AgentConnectError('agent_timeout', true, `agent did not answer (${code || 'timeout'})`);
  if (NETWORK_CODES.has(code)) return new AgentConnectError('agent_error', true, `agent unreachable (${code})`);
  if (code === 'ENOTFOUND') return new AgentConnectError('agent_error', false, 'agent host not found (ENOTFOUND)');
  if (/CERT|SSL|TLS|SELF_SIGNED/i.test(code))
    return new AgentConnectError('agent_error', false, `agent TLS certificate refused (${code})`);
  return new AgentConnectError('agent_error', false, `agent connection failed${code ? ` (${code})` : ''}`);
}

/** scheme://host:port/path of an agent URL: no user info, query or fragment (they may hold tokens). */
export function sanitizedTarget(url: string): string {
  try {
    const u = new URL(url);
    return `${u.protocol}//${u.host}${u.pathname}`;
  } catch {
    return '(invalid URL)';
  }
}

/**
 * A provider's refusal told in words (an error event's code and message, or a close frame's code and
 * reason) before the session was ready: auth (bad or revoked key), quota (credits, billing: not
 * retryable) or rate limit (retryable), not found (model, agent, voice), anything else a protocol error.
 */
export function classifyRefusal(code: string | number | null | undefined, text: string): AgentConnectError {
  const words = `${code ?? ''} ${text}`.toLowerCase();
  // Providers echo masked keys ("sk-abc***xyz"): anything key-like is cut before the text reaches a log line.
  const said = text
    .replace(/[^\x20-\x7e]/g, '?')
    .replace(/\bsk-\S*|[A-Za-z0-9_*-]{20,}/g, '[redacted]')
    .slice(0, 160);
  if (/invalid_api_key|unauthori[sz]ed|authentication|api key|api_key|forbidden|permission/.test(words))
    return new AgentConnectError('agent_auth', false, `provider refused the key: ${said}`);
  if (/rate_limit|rate limit|too many|concurren/.test(words))
    return new AgentConnectError('agent_quota', true, `provider rate limit: ${said}`);
  if (/quota|insufficient|credits|billing|payment/.test(words))
    return new AgentConnectError('agent_quota', false, `provider quota exhausted: ${said}`);
  if (/not[_ ]found|does not exist|unknown (model|agent)|no such/.test(words))
    return new AgentConnectError('agent_error', false, `provider has no such model or agent: ${said}`);
  // The provider failing now (server_error, overloaded) may pass; a request it cannot take will not.
  const transient = /server_error|internal|overloaded|unavailable|try again/.test(words);
  return new AgentConnectError('agent_error', transient, `provider protocol error: ${said}`);
}
