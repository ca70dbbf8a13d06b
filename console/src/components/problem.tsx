import type { ApiError } from '../api';

/**
 * An API error as the user should read it. 403 is a scope problem, not a failure: the page says
 * which key it needs instead of breaking.
 */
export function Problem({ error, what }: { error: ApiError; what?: string }) {
  if (error.status === 403) {
    return (
      <div class="notice scope" role="alert">
        <strong>This key cannot {what ?? 'open this page'}.</strong>
        <p>{error.message}</p>
        <p class="muted">
          Sign in with a key that has the scope this page needs (full or read for account pages, admin for API keys).
        </p>
      </div>
    );
  }
  return (
    <div class="notice error" role="alert">
      <strong>{error.status ? `Error ${error.status}` : 'Error'}</strong>
      <p>{error.message}</p>
    </div>
  );
}

export function Loading({ label = 'Loading…' }: { label?: string }) {
  return (
    <p class="muted" aria-live="polite">
      {label}
    </p>
  );
}

/** A form's error that names no field (a conflict, a network failure), above the form. */
export function FormError({ message }: { message: string | null }) {
  if (!message) return null;
  return (
    <div class="notice error" role="alert">
      {message}
    </div>
  );
}
