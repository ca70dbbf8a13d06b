/**
 * The agent → gateway half of the Media Streams protocol, parsed without trusting the agent:
 * `media` {payload: base64}, `mark` {name}, `clear`. Anything else is dropped by the caller with a counter.
 */
export type AgentMessage =
  | { event: 'media'; audio: Buffer }
  | { event: 'mark'; name: string }
  | { event: 'clear' }
  | { drop: 'oversized' | 'invalid' };

/** Mark names longer than this are refused: a name comes back to the agent verbatim. */
const MAX_MARK_NAME = 256;
const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

export function parseAgentMessage(data: Buffer | string, isBinary: boolean, maxBytes: number): AgentMessage {
  const size = typeof data === 'string' ? Buffer.byteLength(data) : data.byteLength;
  if (size > maxBytes) return { drop: 'oversized' };
  if (isBinary) return { drop: 'invalid' };
  let value: unknown;
  try {
    value = JSON.parse(typeof data === 'string' ? data : data.toString('utf8'));
  } catch {
    return { drop: 'invalid' };
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return { drop: 'invalid' };
  const message = value as Record<string, unknown>;
  switch (message.event) {
    case 'media': {
      const payload = (message.media as { payload?: unknown } | null | undefined)?.payload;
      if (typeof payload !== 'string' || payload.length % 4 !== 0 || !BASE64.test(payload)) return { drop: 'invalid' };
      return { event: 'media', audio: Buffer.from(payload, 'base64') };
    }
    case 'mark': {
      const name = (message.mark as { name?: unknown } | null | undefined)?.name;
      if (typeof name !== 'string' || name.length > MAX_MARK_NAME) return { drop: 'invalid' };
      return { event: 'mark', name };
    }
    case 'clear':
      return { event: 'clear' };
    default:
      return { drop: 'invalid' };
  }
}
