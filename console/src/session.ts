/**
 * The signed-in key lives in sessionStorage only: gone when the tab closes, never in a URL, a
 * cookie or localStorage. Why the last session ended (a revoked or expired key) is kept beside it
 * so the sign-in page can say so.
 */
const KEY = 'trunkline.console.key';
const REASON = 'trunkline.console.signed-out';

export interface Session {
  key: string;
  /** Where the key lands after sign-in: account keys on the overview, admin keys on API keys. */
  home: string;
}

type Listener = (session: Session | null) => void;
const listeners = new Set<Listener>();

export function currentSession(): Session | null {
  try {
    const raw = sessionStorage.getItem(KEY);
    if (!raw) return null;
    const parsed = JSON.parse(raw) as Partial<Session>;
    return typeof parsed.key === 'string' ? { key: parsed.key, home: parsed.home ?? '/overview' } : null;
  } catch {
    return null;
  }
}

export function signIn(session: Session): void {
  sessionStorage.setItem(KEY, JSON.stringify(session));
  sessionStorage.removeItem(REASON);
  listeners.forEach((listener) => listener(session));
}

export function signOut(reason: string | null = null): void {
  sessionStorage.removeItem(KEY);
  if (reason) sessionStorage.setItem(REASON, reason);
  else sessionStorage.removeItem(REASON);
  listeners.forEach((listener) => listener(null));
}

export function signedOutReason(): string | null {
  return sessionStorage.getItem(REASON);
}

export function onSessionChange(listener: Listener): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}
