/**
 * The names of the API keys that acted in a trunk's history, as they are now: the api-keys read
 * model answers (the composition root binds it), so the history shows "by Billing sync" without
 * the trunks reading another feature's events.
 */
export interface ActorNames {
  /**
   * The current name of each of `keyIds` that is a key of `accountId`. Keys of another account or
   * of none (admin and gateway keys), system actors and unknown ids are left out: their names are
   * not the account's to see.
   */
  namesOf(accountId: string, keyIds: readonly string[]): Promise<Map<string, string>>;
}

export const ACTOR_NAMES = Symbol('ActorNames');
