import type { Environment } from '../../shared/api-key-scopes';

/** What authentication needs of the configuration (a slice cut in app.settings.ts). */
export interface AuthSettings {
  /** ADMIN_API_KEY: accepted as an admin key while set (never stored). */
  adminApiKey: string | null;
  /** Keys of the other environment are refused. */
  appEnv: Environment;
}

export const AUTH_SETTINGS = Symbol('AuthSettings');
