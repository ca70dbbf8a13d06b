import { useState } from 'preact/hooks';
import { api, call, type Schemas } from '../api';
import { Field } from '../components/field';
import { inputValue, useFormErrors } from '../components/form-errors';
import { TableHead } from '../components/table-head';
import { FormError, Loading, Problem } from '../components/problem';
import { SecretOnce } from '../components/secret-once';
import { fmtTime } from '../format';
import { href } from '../router';
import { useAction } from '../use-action';
import { useLoad } from '../use-load';

type EventType = NonNullable<Schemas['CreateWebhookEndpointRequestDto']['event_types']>[number];
const EVENT_TYPES: EventType[] = [
  'trunk.created',
  'trunk.updated',
  'trunk.deleted',
  'trunk.password_rotated',
  'call.completed',
  'alert.triggered',
  'alert.resolved',
];

/** Webhook endpoints: create (secret shown once), enable or disable, send a test, rotate, delete. */
export function WebhooksPage() {
  const endpoints = useLoad(
    (signal) => call(api().GET('/webhook-endpoints', { signal, params: { query: { limit: 100 } } })),
    [],
  );
  const [secret, setSecret] = useState<{ label: string; value: string } | null>(null);
  const { problem, run: act } = useAction(endpoints.reload);
  return (
    <section>
      <h1>Webhooks</h1>
      {secret && <SecretOnce label={secret.label} value={secret.value} onDone={() => setSecret(null)} />}
      <NewEndpoint
        onCreated={(created) => {
          setSecret({ label: 'Signing secret of the new endpoint', value: created.secret });
          endpoints.reload();
        }}
      />
      {problem && <Problem error={problem} what="change this endpoint" />}
      {endpoints.error && <Problem error={endpoints.error} what="list webhook endpoints" />}
      {!endpoints.data && !endpoints.error && <Loading />}
      {endpoints.data && (
        <table data-testid="endpoints-table">
          <TableHead columns={['URL', 'Description', 'Events', 'State', 'Last success', 'Actions']} />
          <tbody>
            {endpoints.data.webhook_endpoints.map((e) => {
              const path = { params: { path: { id: e.id } } };
              return (
                <tr>
                  <td class="wrap">{e.url}</td>
                  <td class="wrap">{e.description ?? '–'}</td>
                  <td>{e.event_types?.join(', ') ?? 'all'}</td>
                  <td>
                    <span class={`badge ${e.enabled ? 'active' : 'inactive'}`}>
                      {e.enabled ? 'enabled' : 'disabled'}
                    </span>
                    {e.disabled_reason && <small class="muted"> {e.disabled_reason}</small>}
                  </td>
                  <td>{fmtTime(e.last_success_at)}</td>
                  <td class="actions">
                    <a href={href(`/webhooks/${encodeURIComponent(e.id)}`)}>Deliveries</a>
                    <button
                      type="button"
                      class="secondary"
                      onClick={() => act(() => call(api().POST('/webhook-endpoints/{id}/test', path)))}
                    >
                      Send test
                    </button>
                    <button
                      type="button"
                      class="secondary"
                      onClick={() =>
                        act(() =>
                          call(api().PATCH('/webhook-endpoints/{id}', { ...path, body: { enabled: !e.enabled } })),
                        )
                      }
                    >
                      {e.enabled ? 'Disable' : 'Enable'}
                    </button>
                    <button
                      type="button"
                      class="secondary"
                      onClick={() =>
                        act(async () => {
                          const rotated = await call(api().POST('/webhook-endpoints/{id}/rotate-secret', path));
                          setSecret({ label: 'New signing secret', value: rotated.secret });
                        })
                      }
                    >
                      Rotate secret
                    </button>
                    <button
                      type="button"
                      class="danger"
                      onClick={() => act(() => call(api().DELETE('/webhook-endpoints/{id}', path)))}
                    >
                      Delete
                    </button>
                  </td>
                </tr>
              );
            })}
          </tbody>
        </table>
      )}
      {endpoints.data?.webhook_endpoints.length === 0 && (
        <p class="muted" data-testid="endpoints-empty">
          No endpoints yet: add one above to receive events.
        </p>
      )}
    </section>
  );
}

function NewEndpoint({ onCreated }: { onCreated: (created: Schemas['WebhookEndpointCreatedDto']) => void }) {
  const [url, setUrl] = useState('');
  const [description, setDescription] = useState('');
  const [types, setTypes] = useState<EventType[]>([]);
  const errors = useFormErrors(['url', 'description', 'event_types']);
  const submit = async (event: Event) => {
    event.preventDefault();
    errors.clear();
    try {
      const body = { url, description: description || null, event_types: types.length ? types : null, enabled: true };
      onCreated(await call(api().POST('/webhook-endpoints', { body: body as never })));
      setUrl('');
      setDescription('');
    } catch (error) {
      errors.show(error);
    }
  };
  return (
    <form class="panel form" onSubmit={submit}>
      <h2>Add an endpoint</h2>
      <FormError message={errors.general} />
      <Field id="webhook-url" label="URL" error={errors.byField.url} hint="https://…">
        <input id="webhook-url" value={url} onInput={(e) => setUrl(inputValue(e))} />
      </Field>
      <Field id="webhook-description" label="Description" error={errors.byField.description}>
        <input id="webhook-description" value={description} onInput={(e) => setDescription(inputValue(e))} />
      </Field>
      <fieldset>
        <legend>Events (none checked: every event)</legend>
        {EVENT_TYPES.map((type) => (
          <label class="check">
            <input
              type="checkbox"
              checked={types.includes(type)}
              onChange={(e) =>
                setTypes((e.target as HTMLInputElement).checked ? [...types, type] : types.filter((t) => t !== type))
              }
            />{' '}
            {type}
          </label>
        ))}
      </fieldset>
      <button type="submit">Add endpoint</button>
    </form>
  );
}

/** One endpoint's deliveries with their attempts; a finished one can be replayed. */
export function WebhookDeliveriesPage({ id }: { id: string }) {
  const [status, setStatus] = useState('');
  const deliveries = useLoad(
    (signal) =>
      call(
        api().GET('/webhook-endpoints/{id}/deliveries', {
          signal,
          params: { path: { id }, query: { limit: 50, ...(status ? { status: status as 'pending' } : {}) } },
        }),
      ),
    [id, status],
  );
  const { problem, run } = useAction(deliveries.reload);
  const replay = (deliveryId: string) =>
    run(() => call(api().POST('/webhook-deliveries/{id}/replay', { params: { path: { id: deliveryId } } })));
  return (
    <section>
      <p>
        <a href={href('/webhooks')}>← Webhooks</a>
      </p>
      <h1>Deliveries</h1>
      <label>
        Status{' '}
        <select value={status} onChange={(e) => setStatus(inputValue(e))}>
          <option value="">all</option>
          <option value="pending">pending</option>
          <option value="succeeded">succeeded</option>
          <option value="failed">failed</option>
        </select>
      </label>
      {problem && <Problem error={problem} what="replay this delivery" />}
      {deliveries.error && <Problem error={deliveries.error} what="list deliveries" />}
      {deliveries.data && (
        <table data-testid="deliveries-table">
          <TableHead columns={['Event', 'Status', 'Attempts', 'Last response', 'Next attempt', 'Created', 'Actions']} />
          <tbody>
            {deliveries.data.deliveries.map((d) => (
              <tr>
                <td>
                  {d.event_type} <small class="muted">{d.event_id}</small>
                </td>
                <td>
                  <span class={`badge ${d.status}`}>{d.status}</span>{' '}
                  {d.failure_reason && <small class="muted">{d.failure_reason}</small>}
                </td>
                <td
                  title={d.attempt_history.map((a) => `#${a.attempt} ${a.response_status ?? a.error ?? ''}`).join('\n')}
                >
                  {d.attempts}
                </td>
                <td class="wrap">{d.last_response_status ?? d.last_error ?? '–'}</td>
                <td>{fmtTime(d.next_attempt_at)}</td>
                <td>{fmtTime(d.created_at)}</td>
                <td>
                  {d.status !== 'pending' && (
                    <button type="button" class="secondary" onClick={() => replay(d.id)}>
                      Replay
                    </button>
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {deliveries.data?.deliveries.length === 0 && (
        <p class="muted">No deliveries{status ? ` with status ${status}` : ''} yet.</p>
      )}
    </section>
  );
}
