import { unreachable, type ValidationResult } from './provider-validator.port';

export type HttpAnswer = { status: number } | { failed: ValidationResult };

/** `{base}{path}` with exactly one slash between; `base` may end in a slash or not. */
export function joinUrl(base: string, path: string): URL {
  return new URL(`${base.replace(/\/+$/, '')}${path}`);
}

/**
 * One GET that reports only the status: bodies are never read, since providers echo part of a
 * bad key in their error text. Redirects are not followed: fetch would forward a custom header
 * such as xi-api-key to another origin, and a provider API never redirects a key check anyway.
 */
export async function getStatus(
  provider: string,
  url: URL,
  headers: Record<string, string>,
  signal: AbortSignal,
  timeoutMs: number,
): Promise<HttpAnswer> {
  try {
    const response = await fetch(url, { method: 'GET', headers, signal, redirect: 'manual' });
    await response.body?.cancel().catch(() => undefined);
    return { status: response.status };
  } catch (error) {
    if (signal.aborted) return { failed: unreachable(`${provider} did not answer within ${timeoutMs} ms`) };
    return { failed: unreachable(`could not reach ${provider} (${networkErrorCode(error)})`) };
  }
}

/** The system error code only: undici's messages can quote request details. */
function networkErrorCode(error: unknown): string {
  const cause = (error as { cause?: { code?: unknown } } | null)?.cause;
  const code = cause?.code ?? (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' && /^[A-Z0-9_]+$/.test(code) ? code : 'network error';
}

/** Answers that say nothing about the key: a redirect or a server error. */
export function unexpectedAnswer(provider: string, status: number): ValidationResult {
  return status >= 300 && status < 400
    ? unreachable(`${provider} answered with a redirect (HTTP ${status}); check its API base URL`)
    : unreachable(`${provider} answered HTTP ${status}`);
}
