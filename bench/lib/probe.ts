import { request } from 'node:https';

export interface ProbeResponse {
  status: number;
  body: string;
}

/** One GET with certificate verification on (the CA is the server's self-signed certificate). */
export function getOnce(url: string, ca: string, headers: Record<string, string> = {}): Promise<ProbeResponse> {
  return new Promise((resolve, reject) => {
    const req = request(url, { method: 'GET', ca, headers, agent: false, timeout: 5000 }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8') }));
      res.on('error', reject);
    });
    req.on('timeout', () => req.destroy(new Error(`GET ${url}: timed out`)));
    req.on('error', reject);
    req.end();
  });
}

/**
 * Polls until the GET answers 200: keys issued at start-up reach the Redis read model through
 * the projections, a moment after the command returns.
 */
export async function getUntilOk(
  url: string,
  ca: string,
  headers: Record<string, string>,
  timeoutMs = 15_000,
): Promise<string> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const response = await getOnce(url, ca, headers);
    if (response.status === 200) return response.body;
    if (Date.now() > deadline) throw new Error(`GET ${url}: ${response.status} ${response.body}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}
