import { useState } from 'preact/hooks';
import { api, call, type Schemas } from '../api';
import { Field } from '../components/field';
import { inputValue, useFormErrors } from '../components/form-errors';
import { TableHead } from '../components/table-head';
import { FormError, Loading, Problem } from '../components/problem';
import { SecretOnce } from '../components/secret-once';
import { fmtInt, fmtTime } from '../format';
import { useAction } from '../use-action';
import { useLoad } from '../use-load';

type Scope = Schemas['IssueApiKeyRequestDto']['scopes'][number];
const SCOPES: { scope: Scope; meaning: string }[] = [
  { scope: 'full', meaning: 'everything of the account' },
  { scope: 'read', meaning: 'reads only' },
  { scope: 'ingest', meaning: 'call records from a SIP gateway' },
  { scope: 'admin', meaning: 'accounts and keys (no account)' },
  { scope: 'gateway', meaning: 'a SIP gateway for every account (no account)' },
];
const ACCOUNTLESS: Scope[] = ['admin', 'gateway'];

/** Admin keys: accounts, and each account's keys with their usage; issue (shown once) and revoke. */
export function ApiKeysPage() {
  const accounts = useLoad((signal) => call(api().GET('/accounts', { signal, params: { query: { limit: 100 } } })), []);
  const [accountId, setAccountId] = useState<string>('');
  if (accounts.error) return <Problem error={accounts.error} what="manage API keys (it needs the admin scope)" />;
  if (!accounts.data) return <Loading />;
  return (
    <section>
      <h1>API keys</h1>
      <div class="range">
        <label>
          Account{' '}
          <select value={accountId} onChange={(event) => setAccountId(inputValue(event))} data-testid="account-picker">
            <option value="">Admin and gateway keys (no account)</option>
            {accounts.data.accounts.map((a) => (
              <option value={a.id}>{a.name}</option>
            ))}
          </select>
        </label>
      </div>
      <NewAccount
        onCreated={(id) => {
          accounts.reload();
          setAccountId(id);
        }}
      />
      <AccountKeys key={accountId} accountId={accountId || null} />
    </section>
  );
}

function NewAccount({ onCreated }: { onCreated: (id: string) => void }) {
  const [name, setName] = useState('');
  const errors = useFormErrors(['name']);
  return (
    <form
      class="inline-form"
      onSubmit={async (event) => {
        event.preventDefault();
        errors.clear();
        try {
          const account = await call(api().POST('/accounts', { body: { name } }));
          setName('');
          onCreated(account.id);
        } catch (error) {
          errors.show(error);
        }
      }}
    >
      <Field id="account-name" label="New account" error={errors.byField.name ?? errors.general}>
        <input id="account-name" value={name} onInput={(e) => setName(inputValue(e))} />
      </Field>
      <button type="submit" class="secondary">
        Create account
      </button>
    </form>
  );
}

function AccountKeys({ accountId }: { accountId: string | null }) {
  const keys = useLoad(
    (signal) =>
      call(
        api().GET('/api-keys', {
          signal,
          params: { query: { limit: 100, ...(accountId ? { account_id: accountId } : {}) } },
        }),
      ),
    [accountId],
  );
  const [issued, setIssued] = useState<Schemas['IssuedApiKeyDto'] | null>(null);
  const [confirming, setConfirming] = useState<string | null>(null);
  const { problem, run } = useAction(keys.reload);
  const revoke = (id: string) =>
    run(async () => {
      await call(api().DELETE('/api-keys/{id}', { params: { path: { id } } }));
      setConfirming(null);
    });
  return (
    <>
      {issued && <SecretOnce label={`New key "${issued.name}"`} value={issued.key} onDone={() => setIssued(null)} />}
      <IssueKey
        accountId={accountId}
        onIssued={(key) => {
          setIssued(key);
          keys.reload();
        }}
      />
      {problem && <Problem error={problem} what="revoke this key" />}
      {keys.error && <Problem error={keys.error} what="list keys" />}
      {keys.data && (
        <table data-testid="keys-table">
          <TableHead
            columns={['Name', 'Key', 'Scopes', 'Created', 'Expires', 'Last used', 'Requests', 'Errors', 'State']}
          />
          <tbody>
            {keys.data.api_keys.map((k) => (
              <tr>
                <td>{k.name}</td>
                <td>
                  <code>…{k.key_hint}</code>
                </td>
                <td>{k.scopes.join(', ')}</td>
                <td>{fmtTime(k.created_at)}</td>
                <td>{fmtTime(k.expires_at)}</td>
                <td>{fmtTime(k.last_used_at)}</td>
                <td>{fmtInt(k.request_count)}</td>
                <td>{fmtInt(k.error_count)}</td>
                <td>
                  {k.revoked_at ? (
                    <span class="badge inactive">revoked {fmtTime(k.revoked_at)}</span>
                  ) : confirming === k.id ? (
                    <span class="confirm">
                      <button type="button" class="danger" onClick={() => revoke(k.id)}>
                        Revoke now
                      </button>
                      <button type="button" class="secondary" onClick={() => setConfirming(null)}>
                        Cancel
                      </button>
                    </span>
                  ) : (
                    <button
                      type="button"
                      class="danger"
                      aria-label={`Revoke ${k.name}`}
                      onClick={() => setConfirming(k.id)}
                    >
                      Revoke
                    </button>
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {keys.data?.api_keys.length === 0 && <p class="muted">No keys yet for this account: issue one above.</p>}
    </>
  );
}

function IssueKey({
  accountId,
  onIssued,
}: {
  accountId: string | null;
  onIssued: (key: Schemas['IssuedApiKeyDto']) => void;
}) {
  const available = SCOPES.filter(({ scope }) =>
    accountId ? !ACCOUNTLESS.includes(scope) : ACCOUNTLESS.includes(scope),
  );
  const [name, setName] = useState('');
  const [scopes, setScopes] = useState<Scope[]>([available[0].scope]);
  const [expires, setExpires] = useState('');
  const errors = useFormErrors(['name', 'scopes', 'expires_at']);
  const submit = async (event: Event) => {
    event.preventDefault();
    errors.clear();
    try {
      const body = {
        name,
        scopes,
        ...(accountId ? { account_id: accountId } : {}),
        ...(expires ? { expires_at: new Date(`${expires}:00Z`).toISOString() } : {}),
      };
      onIssued(await call(api().POST('/api-keys', { body })));
      setName('');
    } catch (error) {
      errors.show(error);
    }
  };
  return (
    <form class="panel form" onSubmit={submit}>
      <h2>Issue a key</h2>
      <FormError message={errors.general} />
      <Field id="key-name" label="Name" error={errors.byField.name}>
        <input id="key-name" value={name} onInput={(e) => setName(inputValue(e))} />
      </Field>
      <fieldset>
        <legend>Scopes</legend>
        {available.map(({ scope, meaning }) => (
          <label class="check">
            <input
              type="checkbox"
              checked={scopes.includes(scope)}
              onChange={(e) =>
                setScopes(
                  (e.target as HTMLInputElement).checked ? [...scopes, scope] : scopes.filter((s) => s !== scope),
                )
              }
            />{' '}
            {scope} <span class="muted">({meaning})</span>
          </label>
        ))}
        {errors.byField.scopes && <small class="field-error">{errors.byField.scopes}</small>}
      </fieldset>
      <Field id="key-expires" label="Expires (UTC, optional)" error={errors.byField.expires_at}>
        <input id="key-expires" type="datetime-local" value={expires} onInput={(e) => setExpires(inputValue(e))} />
      </Field>
      <button type="submit">Issue key</button>
    </form>
  );
}
