import { useState } from 'preact/hooks';
import { api, call, type Schemas } from '../api';
import { Loading, Problem } from '../components/problem';
import { SecretOnce } from '../components/secret-once';
import { fmtTime } from '../format';
import { href, navigate } from '../router';
import { useAction } from '../use-action';
import { useLoad } from '../use-load';
import { TrunkForm } from './trunk-form';
import { HistoryTimeline, settingFields } from './trunk-history';
import { TrunkLatency } from './trunk-latency';

type Trunk = Schemas['TrunkDetailDto'];

export function TrunkDetailPage({ id, query }: { id: string; query: URLSearchParams }) {
  const asOf = query.get('as_of');
  const trunk = useLoad(
    (signal) =>
      call(api().GET('/trunks/{id}', { signal, params: { path: { id }, query: asOf ? { as_of: asOf } : {} } })),
    [id, asOf],
  );
  const history = useLoad(
    (signal) => call(api().GET('/trunks/{id}/events', { signal, params: { path: { id }, query: { limit: 100 } } })),
    [id],
  );
  const reload = () => {
    trunk.reload();
    history.reload();
  };
  return (
    <section>
      <p>
        <a href={href('/trunks')}>← Trunks</a>
      </p>
      {trunk.error && <Problem error={trunk.error} what="read this trunk" />}
      {!trunk.data && !trunk.error && <Loading />}
      {trunk.data && <TrunkHead trunk={trunk.data} asOf={asOf} onChanged={reload} />}
      <AsOfPicker id={id} asOf={asOf} />
      {history.data && !asOf && (
        <>
          <h2>Latency and changes</h2>
          <TrunkLatency trunkId={id} events={history.data.events} />
        </>
      )}
      <h2>History</h2>
      {history.error && <Problem error={history.error} what="read this trunk's history" />}
      {history.data && <HistoryTimeline trunkId={id} events={history.data.events} />}
    </section>
  );
}

function TrunkHead({ trunk, asOf, onChanged }: { trunk: Trunk; asOf: string | null; onChanged: () => void }) {
  const [editing, setEditing] = useState(false);
  const [rotated, setRotated] = useState<string | null>(null);
  const [confirmDelete, setConfirmDelete] = useState(false);
  const { problem, run: act } = useAction();
  const path = { params: { path: { id: trunk.id } } };
  const facts: [string, string][] = [
    ['Status', trunk.status],
    ['AI provider', trunk.ai_provider],
    ['SIP username', trunk.sip_username],
    ['SIP endpoint', trunk.sip_endpoint],
    ['Agent endpoint', trunk.custom_endpoint ?? '–'],
    ['ElevenLabs agent', trunk.elevenlabs_agent_id ?? '–'],
    ...settingFields('vad', trunk.vad),
    ...settingFields('provider_settings', trunk.provider_settings),
    ...settingFields('allowed_addresses', trunk.allowed_addresses),
    ['Created', fmtTime(trunk.created_at)],
    ['Updated', fmtTime(trunk.updated_at)],
  ];
  return (
    <>
      <div class="page-head">
        <h1 data-testid="trunk-name">{trunk.name}</h1>
        <span class={`badge ${trunk.status}`}>{trunk.status}</span>
      </div>
      {asOf && (
        <div class="notice" role="status">
          As it was at {fmtTime(asOf)}. <a href={href(`/trunks/${encodeURIComponent(trunk.id)}`)}>Back to now</a>
        </div>
      )}
      {problem && <Problem error={problem} what="change this trunk" />}
      {rotated && <SecretOnce label="New SIP password" value={rotated} onDone={() => setRotated(null)} />}
      {!asOf && (
        <div class="actions">
          <button type="button" onClick={() => setEditing(!editing)}>
            {editing ? 'Close editor' : 'Edit'}
          </button>
          <button
            type="button"
            onClick={() =>
              act(async () => {
                setRotated((await call(api().POST('/trunks/{id}/rotate-password', path))).sip_password);
                onChanged();
              })
            }
          >
            Rotate SIP password
          </button>
          <button
            type="button"
            class="secondary"
            onClick={() =>
              act(() =>
                call(
                  api().PATCH('/trunks/{id}', {
                    ...path,
                    body: { status: trunk.status === 'active' ? 'inactive' : 'active' },
                  }),
                ).then(onChanged),
              )
            }
          >
            {trunk.status === 'active' ? 'Deactivate' : 'Activate'}
          </button>
          {confirmDelete ? (
            <span class="confirm">
              Delete this trunk? Its calls stay in analytics; its secrets become unrecoverable.{' '}
              <button
                type="button"
                class="danger"
                onClick={() => act(() => call(api().DELETE('/trunks/{id}', path)).then(() => navigate('/trunks')))}
              >
                Delete permanently
              </button>
              <button type="button" class="secondary" onClick={() => setConfirmDelete(false)}>
                Keep it
              </button>
            </span>
          ) : (
            <button type="button" class="danger" onClick={() => setConfirmDelete(true)}>
              Delete
            </button>
          )}
        </div>
      )}
      {editing && !asOf && (
        <div class="panel">
          <TrunkForm
            mode="edit"
            initial={trunk}
            submit={async (body) => {
              await call(api().PATCH('/trunks/{id}', { ...path, body: body as never }));
              setEditing(false);
              onChanged();
            }}
          />
        </div>
      )}
      <dl class="facts">
        {facts.map(([label, value]) => (
          <>
            <dt>{label}</dt>
            <dd>{value}</dd>
          </>
        ))}
        <dt>System prompt</dt>
        <dd>{trunk.system_prompt ? <pre class="prompt">{trunk.system_prompt}</pre> : '–'}</dd>
      </dl>
    </>
  );
}

function AsOfPicker({ id, asOf }: { id: string; asOf: string | null }) {
  const [value, setValue] = useState(asOf ? asOf.slice(0, 16) : '');
  return (
    <form
      class="range"
      onSubmit={(event) => {
        event.preventDefault();
        if (value) navigate(`/trunks/${encodeURIComponent(id)}`, { as_of: new Date(`${value}:00Z`).toISOString() });
      }}
    >
      <label>
        State at (UTC){' '}
        <input type="datetime-local" value={value} onInput={(e) => setValue((e.target as HTMLInputElement).value)} />
      </label>
      <button type="submit" class="secondary">
        Show
      </button>
    </form>
  );
}
