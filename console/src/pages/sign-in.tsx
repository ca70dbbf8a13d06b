import { useState } from 'preact/hooks';
import { api, ApiError, call } from '../api';
import { Field } from '../components/field';
import { signIn, signedOutReason } from '../session';

const KEY_FORMAT = /^sk_(live|test)_[A-Za-z0-9]{32}$/;

/**
 * The key is checked with one cheap read. An account key reads trunks; an admin key is refused
 * there (403) but reads accounts; any other refusal but 401 still means a working key.
 */
async function probe(key: string): Promise<string> {
  try {
    await call(api(key).GET('/trunks', { params: { query: { limit: 1 } } }), { signOutOn401: false });
    return '/overview';
  } catch (error) {
    if (!(error instanceof ApiError) || error.status !== 403) throw error;
  }
  try {
    await call(api(key).GET('/accounts', {}), { signOutOn401: false });
    return '/api-keys';
  } catch (error) {
    if (error instanceof ApiError && error.status === 403) return '/overview';
    throw error;
  }
}

export function SignIn() {
  const [key, setKey] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const reason = signedOutReason();

  const submit = async (event: Event) => {
    event.preventDefault();
    const trimmed = key.trim();
    if (!KEY_FORMAT.test(trimmed)) {
      setError('An API key is sk_live_ or sk_test_ followed by 32 letters and digits.');
      return;
    }
    setBusy(true);
    setError(null);
    try {
      const home = await probe(trimmed);
      signIn({ key: trimmed, home });
      location.hash = `#${home}`;
    } catch (caught) {
      setError(caught instanceof ApiError ? caught.message : 'The key could not be checked.');
    } finally {
      setBusy(false);
    }
  };

  return (
    <main class="sign-in" id="main">
      <h1>Trunkline console</h1>
      {reason && (
        <div class="notice error" role="alert" data-testid="signed-out-reason">
          <strong>You were signed out.</strong>
          <p>{reason}</p>
        </div>
      )}
      <form onSubmit={submit} autocomplete="off">
        <Field
          id="api-key"
          label="API key"
          error={error}
          hint="Kept in this tab only (sessionStorage); never sent anywhere but the API."
        >
          <input
            id="api-key"
            name="api-key"
            type="password"
            autocomplete="off"
            spellcheck={false}
            value={key}
            aria-invalid={error ? 'true' : undefined}
            aria-describedby={error ? 'api-key-error' : undefined}
            onInput={(event) => setKey((event.target as HTMLInputElement).value)}
          />
        </Field>
        <button type="submit" disabled={busy}>
          {busy ? 'Checking…' : 'Sign in'}
        </button>
      </form>
      <p class="muted">
        New here? The API reference is at <a href="/docs">/docs</a>.
      </p>
    </main>
  );
}
