import type { Environment } from '../../shared/api-key-scopes';

/** What command handlers need of the configuration (a slice cut in app.settings.ts). */
export interface WriteSettings {
  /** Host of `sip_endpoint` (`<sip_username>@<SIP_DOMAIN>`). */
  sipDomain: string;
  /** Which keys this instance issues and accepts (`sk_live_` or `sk_test_`). */
  appEnv: Environment;
}

export const WRITE_SETTINGS = Symbol('WriteSettings');
