import type { Environment, Scope } from './api-key-scopes';

/** Who is calling: attached to the request by the request gate (src/access/). */
export interface Principal {
  keyId: string;
  accountId: string | null;
  scopes: Scope[];
  environment: Environment;
}
