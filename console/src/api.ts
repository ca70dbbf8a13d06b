import { createTrunklineClient, type components, type TrunklineClient } from '../../clients/typescript';
import { currentSession, signOut } from './session';

export type Schemas = components['schemas'];

/** The API's error envelope, thrown by `call` for every non-2xx answer. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly param?: string,
  ) {
    super(message);
  }
}

let cached: { key: string; client: TrunklineClient } | null = null;

/** The typed client (clients/typescript, generated from the OpenAPI document) with the session's key. */
export function api(key = currentSession()?.key): TrunklineClient {
  if (!key) throw new ApiError(401, 'missing_authentication', 'Not signed in');
  if (cached?.key !== key)
    cached = { key, client: createTrunklineClient({ baseUrl: `${location.origin}/v1`, apiKey: key }) };
  return cached.client;
}

interface Answer<T> {
  data?: T;
  error?: unknown;
  response: Response;
}

/**
 * Unwraps an openapi-fetch answer. A 401 means the key stopped working (revoked, expired): the
 * console signs out and shows the API's reason.
 */
export async function call<T>(request: Promise<Answer<T>>, options: { signOutOn401?: boolean } = {}): Promise<T> {
  let answer: Answer<T>;
  try {
    answer = await request;
  } catch {
    throw new ApiError(0, 'network_error', 'The service could not be reached');
  }
  if (answer.response.ok) return answer.data as T;
  const envelope = (answer.error as { error?: { code?: string; message?: string; param?: string } } | undefined)?.error;
  const error = new ApiError(
    answer.response.status,
    envelope?.code ?? 'http_error',
    envelope?.message ?? `HTTP ${answer.response.status}`,
    envelope?.param,
  );
  if (error.status === 401 && options.signOutOn401 !== false) signOut(error.message);
  throw error;
}
