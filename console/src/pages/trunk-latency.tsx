import { useMemo, useState } from 'preact/hooks';
import type { AlignedData } from 'uplot';
import { api, call, type Schemas } from '../api';
import { inputValue } from '../components/form-errors';
import { Loading, Problem } from '../components/problem';
import { TimeChart } from '../components/time-chart';
import { fmtInt, fmtTime } from '../format';
import { useLoad } from '../use-load';
import { Failures } from './failure-breakdown';
import { eventTitle } from './trunk-history';
import { overview, PRESETS, type RangeChoice } from './overview-data';

/**
 * The trunk's latency per hour with its configuration changes drawn as markers: what changed
 * before p95 jumped. Each hour carries its own p95 in the one overview answer.
 */
export function TrunkLatency({ trunkId, events }: { trunkId: string; events: Schemas['TrunkHistoryEventDto'][] }) {
  const [span, setSpan] = useState<'24h' | '7d'>('24h');
  const range = useMemo(() => {
    const now = Date.now();
    return {
      range: span,
      start: new Date(now - PRESETS[span].span).toISOString(),
      end: new Date(now).toISOString(),
      granularity: 'hourly' as const,
    };
    // A new change (the history reloads after each) moves the range up to now, so its marker shows.
  }, [trunkId, span, events.length]);
  const stats = useLoad(
    async (signal) => {
      const [main, concurrency] = await Promise.all([overview(range, trunkId, signal), peaks(range, trunkId, signal)]);
      return { main, concurrency };
    },
    [range],
  );
  const data = useMemo<AlignedData | null>(() => {
    if (!stats.data) return null;
    const points = stats.data.main.timeseries;
    const x = points.map((p) => Date.parse(p.timestamp) / 1000);
    const avg = points.map((p) => (p.calls ? p.avg_latency_ms : null));
    const calls = points.map((p) => p.calls);
    const p95 = points.map((p) => (p.calls ? p.p95_latency_ms : null));
    return [x, avg, p95, calls];
  }, [stats.data]);
  const markers = useMemo(
    () =>
      events
        .filter((e) => e.type !== 'TrunkCreated')
        .map((e) => ({ at: Date.parse(e.recorded_at) / 1000, label: eventTitle(e.type) })),
    [events],
  );
  return (
    <>
      <label>
        Range{' '}
        <select value={span} onChange={(e) => setSpan(inputValue(e) as '24h' | '7d')}>
          <option value="24h">Last 24 hours</option>
          <option value="7d">Last 7 days</option>
        </select>
      </label>
      {stats.error && <Problem error={stats.error} what="read analytics" />}
      {!stats.error && (!data || !stats.data) && <Loading />}
      {data && stats.data && (
        <TimeChart
          id="trunk-latency"
          title={`Latency per hour, ${PRESETS[span].label.toLowerCase()}, with configuration changes`}
          summary={`p95 ${stats.data.main.performance.p95_latency_ms} ms over the range; ${markers.length} changes marked`}
          data={data}
          series={SERIES}
          yLabel="ms"
          y2Label="calls"
          markers={markers}
          xRange={xRangeOf(data[0] as number[], range)}
        />
      )}
      {stats.data && <Capacity concurrency={stats.data.concurrency} main={stats.data.main} span={span} />}
      {/* The trunk's failed calls, from the same overview answer: no request of their own. */}
      {stats.data && <Failures data={stats.data.main} />}
    </>
  );
}

const SERIES = [
  { label: 'Avg latency (ms)', color: '#1f6feb' },
  { label: 'p95 (ms)', color: '#c2410c' },
  { label: 'Calls', color: '#94a3b8', scale: 'y2' as const, bars: true },
];

function peaks(range: RangeChoice, trunkId: string, signal: AbortSignal): Promise<Schemas['ConcurrencyDto']> {
  const query = { start_date: range.start, end_date: range.end, granularity: range.granularity, trunk_id: trunkId };
  return call(api().GET('/analytics/concurrency', { signal, params: { query } }));
}

/**
 * The trunk's peak of calls at once against the gateway's per-trunk limit. Trunkline does not know
 * the limit's value (the SIP gateway's MAX_CALLS_PER_TRUNK), but it knows every INVITE the gateway
 * refused for it (rejection over_capacity): a peak at the limit shows as refusals.
 */
function Capacity(props: {
  concurrency: Schemas['ConcurrencyDto'];
  main: Schemas['AnalyticsOverviewDto'];
  span: '24h' | '7d';
}) {
  const { concurrency } = props;
  const refused = props.main.rejections.by_reason?.over_capacity ?? 0;
  const peakHours = useMemo<AlignedData>(
    () => [
      concurrency.timeseries.map((p) => Date.parse(p.timestamp) / 1000),
      concurrency.timeseries.map((p) => p.peak_concurrent_calls),
      concurrency.timeseries.map((p) => p.mean_concurrent_calls),
    ],
    [concurrency],
  );
  return (
    <>
      <dl class="facts" data-testid="trunk-capacity">
        <dt>Peak calls at once</dt>
        <dd>
          {fmtInt(concurrency.peak_concurrent_calls)}
          {concurrency.peak_at && ` at ${fmtTime(concurrency.peak_at)}`} ({PRESETS[props.span].label.toLowerCase()})
        </dd>
        <dt>Mean calls at once</dt>
        <dd>{concurrency.mean_concurrent_calls}</dd>
        <dt>Refused at the gateway's per-trunk limit</dt>
        <dd>
          {fmtInt(refused)} {refused === 1 ? 'INVITE' : 'INVITEs'}{' '}
          <span class="muted">
            (the SIP gateway's MAX_CALLS_PER_TRUNK, 100 by default: a peak that reaches it shows here as refusals)
          </span>
        </dd>
      </dl>
      <TimeChart
        id="trunk-concurrency"
        title="Calls at once per hour (peak and mean)"
        summary={`peak ${concurrency.peak_concurrent_calls}, mean ${concurrency.mean_concurrent_calls} over the range; ${refused} refused over the gateway's limit`}
        data={peakHours}
        series={CONCURRENCY_SERIES}
        yLabel="calls at once"
      />
    </>
  );
}

const CONCURRENCY_SERIES = [
  { label: 'Peak', color: '#7c3aed' },
  { label: 'Mean', color: '#0e7490', dash: [6, 4] },
];

/** Half an hour of margin around the first and last hourly bars (drawn whole), and up to now so a change made this hour shows. */
function xRangeOf(x: number[], range: RangeChoice): [number, number] {
  const half = 1_800;
  const end = Date.parse(range.end) / 1000;
  if (x.length === 0) return [Date.parse(range.start) / 1000, end];
  return [x[0] - half, Math.max(end, x[x.length - 1] + half)];
}
