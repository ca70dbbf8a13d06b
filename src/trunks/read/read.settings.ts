/** What query handlers need of the configuration (a slice cut in app.settings.ts). */
export interface ReadSettings {
  /** Host of `sip_endpoint` (`<sip_username>@<SIP_DOMAIN>`). */
  sipDomain: string;
  /** SIP_ROUTE_*: the SIP URI template a gateway relays each provider's calls to (null: unset). */
  sipRoutes: Record<'openai' | 'elevenlabs' | 'custom', string | null>;
}

export const READ_SETTINGS = Symbol('ReadSettings');
