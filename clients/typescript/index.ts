import createClient, { type Client } from 'openapi-fetch';
import type { paths } from './schema';

export type { components, operations, paths } from './schema';

export interface TrunklineClientOptions {
  /** The API's base URL, ending in /v1: `https://localhost:8443/v1`. */
  baseUrl: string;
  /** `sk_live_…` or `sk_test_…`. */
  apiKey: string;
  /** Another fetch (a test's, trusting a private CA; a browser's default is used otherwise). */
  fetch?: (input: Request) => Promise<Response>;
}

export type TrunklineClient = Client<paths>;

/**
 * A typed client of the Trunkline API: paths, parameters, bodies and responses come from the
 * OpenAPI document (schema.d.ts, `npm run client:generate`); calls go through openapi-fetch.
 */
export function createTrunklineClient({ baseUrl, apiKey, fetch }: TrunklineClientOptions): TrunklineClient {
  return createClient<paths>({
    baseUrl: baseUrl.replace(/\/+$/, ''),
    headers: { Authorization: `Bearer ${apiKey}` },
    ...(fetch ? { fetch } : {}),
  });
}
