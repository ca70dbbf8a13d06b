/** What query handlers need of the configuration (a slice cut in app.settings.ts). */
export interface ReadSettings {
  /** Host of `sip_endpoint` (`<sip_username>@<SIP_DOMAIN>`). */
  sipDomain: string;
}

export const READ_SETTINGS = Symbol('ReadSettings');
