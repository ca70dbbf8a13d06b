import { Agent, request } from 'undici';
import { observeExchange } from './openapi-conformance';

export interface ApiResponse<T = any> {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: T;
  text: string;
}

/** An HTTPS client that trusts exactly the app's certificate (no rejectUnauthorized: false). */
export class ApiClient {
  private readonly agent: Agent;

  constructor(
    readonly origin: string,
    ca: string | null,
    private readonly defaultKey: string | null = null,
    /** localAddress: the loopback address to connect from (a client address of its own, 127.0.0.N). */
    connect: { localAddress?: string } = {},
  ) {
    this.agent = new Agent({ connect: { ...(ca ? { ca } : {}), ...connect }, connections: 16 });
  }

  withKey(key: string | null): ApiClient {
    const client = Object.create(this) as ApiClient;
    (client as unknown as { defaultKey: string | null }).defaultKey = key;
    return client;
  }

  async call<T = any>(
    method: string,
    path: string,
    options: { body?: unknown; rawBody?: string | Buffer; headers?: Record<string, string>; key?: string | null } = {},
  ): Promise<ApiResponse<T>> {
    const key = options.key === undefined ? this.defaultKey : options.key;
    const headers: Record<string, string> = { ...(key ? { authorization: `Bearer ${key}` } : {}), ...options.headers };
    let body: string | Buffer | undefined = options.rawBody;
    if (options.body !== undefined) {
      body = JSON.stringify(options.body);
      headers['content-type'] ??= 'application/json';
    }
    const response = await request(`${this.origin}${path}`, {
      method: method as 'GET',
      headers,
      body,
      dispatcher: this.agent,
    });
    const text = String(response.headers['content-type'] ?? '').startsWith('text/event-stream')
      ? await firstEvent(response.body)
      : await response.body.text();
    let parsed: unknown;
    try {
      parsed = text ? JSON.parse(text) : undefined;
    } catch {
      parsed = undefined;
    }
    const result: ApiResponse<T> = {
      status: response.statusCode,
      headers: response.headers as ApiResponse['headers'],
      body: parsed as T,
      text,
    };
    observeExchange(this.origin, { method: method.toUpperCase(), path, ...result });
    return result;
  }

  get<T = any>(path: string, options?: Parameters<ApiClient['call']>[2]) {
    return this.call<T>('GET', path, options);
  }
  post<T = any>(path: string, body?: unknown, options?: Parameters<ApiClient['call']>[2]) {
    return this.call<T>('POST', path, { ...options, body });
  }
  patch<T = any>(path: string, body?: unknown, options?: Parameters<ApiClient['call']>[2]) {
    return this.call<T>('PATCH', path, { ...options, body });
  }
  delete<T = any>(path: string, options?: Parameters<ApiClient['call']>[2]) {
    return this.call<T>('DELETE', path, options);
  }

  close(): Promise<void> {
    return this.agent.close();
  }
}

/**
 * A stream (GET /v1/calls/stream) never ends: a plain call reads up to its first event and leaves,
 * so the route answers like any other to the suites that try every route (security matrix, fuzz).
 * Tests of the stream itself use test/support/sse-client.ts.
 */
async function firstEvent(body: AsyncIterable<Buffer> & { destroy(): unknown }): Promise<string> {
  let text = '';
  for await (const chunk of body) {
    text += chunk.toString('utf8');
    if (text.includes('\n\n')) break;
  }
  body.destroy();
  return text;
}

/** The envelope of decisions.md: {"error": {"code", "message", "status"}}. */
export function expectError(response: ApiResponse, status: number, code: string): void {
  const actual = { status: response.status, code: response.body?.error?.code };
  // On a mismatch the diff also shows the message: which of several 503s (or 404s) it was.
  if (actual.status !== status || actual.code !== code)
    expect({ ...actual, message: response.body?.error?.message }).toEqual({ status, code });
  expect(response.body.error.status).toBe(status);
  expect(typeof response.body.error.message).toBe('string');
  expect(response.body.error.message.length).toBeGreaterThan(0);
}
