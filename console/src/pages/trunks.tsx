import { useState } from 'preact/hooks';
import { api, call } from '../api';
import { TableHead } from '../components/table-head';
import { Loading, Problem } from '../components/problem';
import { fmtInt, fmtMs, fmtPct, fmtTime } from '../format';
import { href, navigate } from '../router';
import { useLoad } from '../use-load';
import { TrunkForm } from './trunk-form';

export function TrunksPage() {
  const [offset, setOffset] = useState(0);
  const [creating, setCreating] = useState(false);
  const trunks = useLoad(
    (signal) => call(api().GET('/trunks', { signal, params: { query: { limit: 25, offset } } })),
    [offset],
  );
  return (
    <section>
      <div class="page-head">
        <h1>Trunks</h1>
        {!creating && (
          <button type="button" onClick={() => setCreating(true)}>
            New trunk
          </button>
        )}
      </div>
      {creating && (
        <div class="panel">
          <h2>New trunk</h2>
          <TrunkForm
            mode="create"
            submit={async (body) => {
              const created = await call(api().POST('/trunks', { body: body as never }));
              setCreating(false);
              navigate(`/trunks/${encodeURIComponent(created.id)}`, { created: '1' });
            }}
          />
          <button type="button" class="secondary" onClick={() => setCreating(false)}>
            Cancel
          </button>
        </div>
      )}
      {trunks.error && <Problem error={trunks.error} what="list trunks" />}
      {!trunks.data && !trunks.error && <Loading />}
      {trunks.data && (
        <>
          <table data-testid="trunks-table">
            <TableHead
              columns={[
                'Name',
                'Status',
                'Provider',
                'SIP username',
                'Calls today',
                'Success',
                'Avg latency',
                'Created',
              ]}
            />
            <tbody>
              {trunks.data.trunks.map((t) => (
                <tr>
                  <td>
                    <a href={href(`/trunks/${encodeURIComponent(t.id)}`)}>{t.name}</a>
                  </td>
                  <td>
                    <span class={`badge ${t.status}`}>{t.status}</span>
                  </td>
                  <td>{t.ai_provider}</td>
                  <td>{t.sip_username}</td>
                  <td>{fmtInt(t.stats.calls_today)}</td>
                  <td>{fmtPct(t.stats.success_rate)}</td>
                  <td>{fmtMs(t.stats.avg_latency_ms)}</td>
                  <td>{fmtTime(t.created_at)}</td>
                </tr>
              ))}
            </tbody>
          </table>
          {trunks.data.trunks.length === 0 && <p class="muted">No trunks yet.</p>}
          <div class="pager">
            <button
              type="button"
              class="secondary"
              disabled={offset === 0}
              onClick={() => setOffset(Math.max(0, offset - 25))}
            >
              Previous
            </button>
            <span class="muted">
              {trunks.data.pagination.total === 0 ? 0 : offset + 1}–{offset + trunks.data.trunks.length} of{' '}
              {trunks.data.pagination.total}
            </span>
            <button
              type="button"
              class="secondary"
              disabled={offset + 25 >= trunks.data.pagination.total}
              onClick={() => setOffset(offset + 25)}
            >
              Next
            </button>
          </div>
        </>
      )}
    </section>
  );
}
