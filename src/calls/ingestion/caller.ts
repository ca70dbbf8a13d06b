/**
 * Callers and called parties as a SIP gateway sees them: an E.164 number, or what the From/To
 * URI carries when it is not one (`anonymous`, `Restricted`, a user name, a national number, a
 * whole `sip:` or `tel:` URI). Kept as given, with the E.164 form beside it when there is one.
 * Printable ASCII only, without quotes, angle brackets, backslashes or spaces: a display name
 * never gets in, and nothing stored needs escaping to be shown.
 */
export const CALLER = /^[A-Za-z0-9+._~*#@:;=!$&'()/,%?[\]-]{1,128}$/;
export const E164 = /^\+[1-9]\d{1,14}$/;

/** The E.164 form of a caller: itself, the user part of a sip:/tel: URI, minus visual separators; else null. */
export function e164Of(caller: string): string | null {
  if (E164.test(caller)) return caller;
  let user = caller.replace(/^(sips?|tel):/i, '');
  user = user.split('@')[0].split(';')[0];
  user = user.replace(/[-.()]/g, '');
  return E164.test(user) ? user : null;
}
