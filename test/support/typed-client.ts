import { Agent, fetch as undiciFetch } from 'undici';
import { createTrunklineClient, TrunklineClient } from '../../clients/typescript';
import { observeExchange } from './openapi-conformance';
import type { TestApp } from './test-app';

/**
 * The repository's typed client (clients/typescript) against a test app: a fetch that trusts
 * exactly the app's certificate, and whose responses are checked against the OpenAPI document
 * like the ApiClient's.
 */
export function typedClientFor(app: TestApp, apiKey: string): { client: TrunklineClient; close(): Promise<void> } {
  const agent = new Agent({ connect: { ca: app.running.tls?.cert ?? undefined } });
  const origin = new URL(app.admin.origin);
  const fetch = async (request: Request): Promise<Response> => {
    const url = new URL(request.url);
    const body = request.body ? Buffer.from(await request.arrayBuffer()) : undefined;
    const response = await undiciFetch(url, {
      method: request.method,
      headers: [...request.headers],
      body,
      dispatcher: agent,
    });
    const text = await response.text();
    const headers = Object.fromEntries(response.headers);
    observeExchange(url.origin, {
      method: request.method,
      path: `${url.pathname}${url.search}`,
      status: response.status,
      headers,
      text,
      body: parse(text),
    });
    // A Response of this realm: openapi-fetch reads it with the global Response's methods.
    return new Response(text === '' ? null : text, { status: response.status, headers });
  };
  const client = createTrunklineClient({ baseUrl: `${origin.origin}/v1`, apiKey, fetch });
  return { client, close: () => agent.close() };
}

function parse(text: string): unknown {
  try {
    return text ? JSON.parse(text) : undefined;
  } catch {
    return undefined;
  }
}
