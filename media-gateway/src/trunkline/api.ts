import { Agent, request } from 'node:https';
import { request as plainRequest, Agent as PlainAgent } from 'node:http';
import { createTrunklineClient, TrunklineClient } from '../../../clients/typescript';
import type { Settings } from '../settings';

const TIMEOUT_MS = 5_000;

/**
 * A fetch for the typed client that trusts Trunkline's own CA (TRUNKLINE_CA_FILE) and keeps
 * connections open. Node's global fetch cannot take a CA without the undici package at run time.
 */
function fetchWith(settings: Settings): (input: Request) => Promise<Response> {
  const tls = settings.trunklineUrl.startsWith('https:');
  const agent = tls
    ? new Agent({ keepAlive: true, maxSockets: 16, ...(settings.trunklineCa ? { ca: settings.trunklineCa } : {}) })
    : new PlainAgent({ keepAlive: true, maxSockets: 16 });
  return async (input: Request) => {
    const body = input.body ? Buffer.from(await input.arrayBuffer()) : undefined;
    const headers: Record<string, string> = {};
    input.headers.forEach((value, name) => (headers[name] = value));
    if (body) headers['content-length'] = String(body.length);
    return new Promise<Response>((resolve, reject) => {
      const send = tls ? request : plainRequest;
      const req = send(input.url, { method: input.method, headers, agent, timeout: TIMEOUT_MS }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('error', reject);
        res.on('end', () => {
          const responseHeaders = new Headers();
          for (const [name, value] of Object.entries(res.headers)) {
            if (typeof value === 'string') responseHeaders.set(name, value);
            else if (Array.isArray(value)) for (const v of value) responseHeaders.append(name, v);
          }
          const status = res.statusCode ?? 500;
          const payload = status === 204 || status === 304 ? null : Buffer.concat(chunks);
          resolve(new Response(payload, { status, headers: responseHeaders }));
        });
      });
      req.on('timeout', () => req.destroy(new Error(`Trunkline did not answer in ${TIMEOUT_MS} ms`)));
      req.on('error', reject);
      req.end(body);
    });
  };
}

export function trunklineClient(settings: Settings): TrunklineClient {
  return createTrunklineClient({
    baseUrl: settings.trunklineUrl,
    apiKey: settings.gatewayKey,
    fetch: fetchWith(settings),
  });
}
