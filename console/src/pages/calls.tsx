import { useState } from 'preact/hooks';
import { api, call } from '../api';
import { TableHead } from '../components/table-head';
import { Loading, Problem } from '../components/problem';
import { fmtDuration, fmtMs, fmtTime } from '../format';
import { href, navigate } from '../router';
import { useLoad } from '../use-load';
import { useCallStream, withLiveCalls } from '../use-call-stream';
import { useTrunkNames } from '../use-trunk-names';

const FILTERS = ['trunk_id', 'status', 'direction', 'from', 'to', 'start_date', 'end_date'] as const;
type Filter = (typeof FILTERS)[number];

/**
 * The calls list with the API's filters and cursor paging. The filters and the cursor live in
 * the URL; "previous" goes back through the cursors this tab followed (the API pages forward).
 */
export function CallsPage({ query }: { query: URLSearchParams }) {
  const filters = Object.fromEntries(FILTERS.map((name) => [name, query.get(name) ?? ''])) as Record<Filter, string>;
  const cursor = query.get('cursor');
  const trail = (query.get('trail') ?? '').split(',').filter(Boolean);
  const calls = useLoad(
    (signal) =>
      call(
        api().GET('/calls', {
          signal,
          params: {
            query: {
              limit: 25,
              ...(cursor ? { cursor } : {}),
              ...Object.fromEntries(Object.entries(filters).filter(([, v]) => v)),
            } as never,
          },
        }),
      ),
    [query.toString()],
  );
  const trunks = useLoad((signal) => call(api().GET('/trunks', { signal, params: { query: { limit: 100 } } })), []);
  // New calls appear on the first page as they are stored (GET /v1/calls/stream).
  const live = useCallStream(!cursor, query.toString());
  const rows = calls.data ? withLiveCalls(calls.data.calls, live, filters) : [];
  // Names for the trunk column: from the list the trunk filter loads anyway, the rest (a trunk past
  // its first 100) by id, once per distinct trunk (use-trunk-names.ts).
  const trunkNames = useTrunkNames(
    rows.map((c) => c.trunk_id),
    trunks.data?.trunks,
    !trunks.loading,
  );
  const go = (changes: Record<string, string | null>) =>
    navigate('/calls', { ...filters, cursor, trail: trail.join(','), ...changes });
  return (
    <section>
      <h1>Calls</h1>
      <CallFilters
        key={query.toString()}
        filters={filters}
        trunks={trunks.data?.trunks.map((t) => [t.id, t.name] as [string, string]) ?? []}
        onApply={(next) => navigate('/calls', next)}
      />
      {calls.error && <Problem error={calls.error} what="list calls" />}
      {!calls.data && !calls.error && <Loading />}
      {calls.data && (
        <>
          <p class="muted" aria-live="polite">
            {calls.data.pagination.total} matching calls
          </p>
          <table data-testid="calls-table" aria-busy={calls.loading ? 'true' : 'false'}>
            <TableHead
              columns={['Start', 'Call', 'Trunk', 'From', 'To', 'Direction', 'Status', 'Duration', 'AI latency']}
            />
            <tbody>
              {rows.map((c) => (
                <tr key={c.id}>
                  <td>{fmtTime(c.start_time)}</td>
                  <td>
                    <a href={href(`/calls/${encodeURIComponent(c.id)}`)}>{c.id}</a>
                  </td>
                  <td>
                    <a href={href(`/trunks/${encodeURIComponent(c.trunk_id)}`)}>
                      {trunkNames.get(c.trunk_id) ?? c.trunk_id}
                    </a>
                  </td>
                  <td>{c.from}</td>
                  <td>{c.to}</td>
                  <td>{c.direction}</td>
                  <td>
                    <span class={`badge ${c.status}`}>{c.status}</span>
                  </td>
                  <td>{fmtDuration(c.duration_seconds)}</td>
                  <td>{fmtMs(c.ai_latency_ms)}</td>
                </tr>
              ))}
            </tbody>
          </table>
          <div class="pager">
            <button
              type="button"
              class="secondary"
              disabled={!cursor}
              onClick={() => go({ cursor: trail.at(-1) ?? null, trail: trail.slice(0, -1).join(',') })}
            >
              Previous
            </button>
            <button
              type="button"
              disabled={!calls.data.pagination.has_more}
              onClick={() =>
                go({ cursor: calls.data!.pagination.next_cursor, trail: [...trail, cursor ?? ''].join(',') })
              }
            >
              Next
            </button>
          </div>
        </>
      )}
    </section>
  );
}

function CallFilters(props: {
  filters: Record<Filter, string>;
  trunks: [string, string][];
  onApply: (f: Record<Filter, string>) => void;
}) {
  const [draft, setDraft] = useState(props.filters);
  const set = (name: Filter) => (event: Event) =>
    setDraft({ ...draft, [name]: (event.target as HTMLInputElement).value });
  return (
    <form
      class="filters"
      onSubmit={(event) => {
        event.preventDefault();
        props.onApply(draft);
      }}
    >
      <Choice
        label="Trunk"
        value={draft.trunk_id}
        onChange={set('trunk_id')}
        options={[['', 'all'], ...props.trunks]}
      />
      <Choice label="Status" value={draft.status} onChange={set('status')} options={STATUSES} />
      <Choice label="Direction" value={draft.direction} onChange={set('direction')} options={DIRECTIONS} />
      <label>
        From number
        <input value={draft.from} placeholder="+14155550100" onInput={set('from')} />
      </label>
      <label>
        To number
        <input value={draft.to} placeholder="+18005550100" onInput={set('to')} />
      </label>
      <label>
        Since
        <input type="date" value={draft.start_date} onInput={set('start_date')} />
      </label>
      <label>
        Until
        <input type="date" value={draft.end_date} onInput={set('end_date')} />
      </label>
      <button type="submit">Filter</button>
    </form>
  );
}

const STATUSES: [string, string][] = [
  ['', 'all'],
  ['connected', 'connected'],
  ['failed', 'failed'],
  ['disconnected', 'disconnected'],
];
const DIRECTIONS: [string, string][] = [
  ['', 'both'],
  ['inbound', 'inbound'],
  ['outbound', 'outbound'],
];

/** A labelled select of [value, label] pairs. */
function Choice(props: {
  label: string;
  value: string;
  onChange: (event: Event) => void;
  options: [string, string][];
}) {
  return (
    <label>
      {props.label}
      <select value={props.value} onChange={props.onChange}>
        {props.options.map(([value, label]) => (
          <option value={value}>{label}</option>
        ))}
      </select>
    </label>
  );
}
