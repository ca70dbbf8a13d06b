import type { ReadAheadResult } from '../infrastructure/read-model/read-ahead';
import type { Environment, Scope } from './api-key-scopes';

/** Who is calling: attached to the request by the auth hook. */
export interface Principal {
  keyId: string;
  accountId: string | null;
  scopes: Scope[];
  environment: Environment;
}

declare module 'fastify' {
  interface FastifyRequest {
    principal?: Principal;
    /** What the gate read ahead for the handler (request-gate.ts). */
    readAhead?: ReadAheadResult;
  }
}
