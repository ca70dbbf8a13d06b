import { useEffect, useMemo } from 'preact/hooks';
import type { AlignedData } from 'uplot';
import { api, call, type Schemas } from '../api';
import { TableHead } from '../components/table-head';
import { Loading, Problem } from '../components/problem';
import { TimeChart } from '../components/time-chart';
import { fmtInt, fmtMs, fmtPct } from '../format';
import { href } from '../router';
import { useLoad } from '../use-load';
import { Failures, Rejections } from './failure-breakdown';
import { RangePicker } from './range-picker';
import { bucketMs, overview, PALETTE, partialBuckets, rangeOf, type RangeChoice, trunkSeries } from './overview-data';

type Overview = Schemas['AnalyticsOverviewDto'];

export function OverviewPage({ query }: { query: URLSearchParams }) {
  const range = useMemo(() => rangeOf(query), [query.toString()]);
  const main = useLoad((signal) => overview(range, undefined, signal), [range]);
  const alerts = useLoad((signal) => call(api().GET('/alert-rules', { signal })), []);
  return (
    <section>
      <div class="page-head">
        <h1>Overview</h1>
        <RangePicker range={range} />
      </div>
      {main.error && <Problem error={main.error} what="read analytics" />}
      {!main.data && !main.error && <Loading />}
      {main.data && <Figures data={main.data} />}
      {main.data && <Charts range={range} data={main.data} />}
      {main.data && <Breakdowns data={main.data} />}
      <h2>Active alerts</h2>
      {alerts.error && <Problem error={alerts.error} what="read alert rules" />}
      {alerts.data && <ActiveAlerts rules={alerts.data.alert_rules} />}
    </section>
  );
}

function Figures({ data }: { data: Overview }) {
  const tiles: [string, string][] = [
    ['Calls', fmtInt(data.summary.total_calls)],
    ['Success rate', fmtPct(data.summary.success_rate)],
    ['Call minutes', fmtInt(Math.round(data.summary.total_duration_seconds / 60))],
    ['Billable minutes', fmtInt(Math.round(data.summary.total_billable_seconds / 60))],
    ['Avg latency', fmtMs(data.performance.avg_total_latency_ms)],
    ['p50 latency', fmtMs(data.performance.p50_latency_ms)],
    ['p95 latency', fmtMs(data.performance.p95_latency_ms)],
    ['p99 latency', fmtMs(data.performance.p99_latency_ms)],
    ['Avg jitter', fmtMs(data.quality.avg_jitter_ms)],
    ['Packet loss', fmtPct(data.quality.avg_packet_loss_percent)],
  ];
  return (
    <dl class="tiles" data-testid="overview-totals">
      {tiles.map(([label, value]) => (
        <div class="tile">
          <dt>{label}</dt>
          <dd>{value}</dd>
        </div>
      ))}
    </dl>
  );
}

/**
 * The charts of one answer: figures, the calls and latency charts and the busiest trunks' chart
 * all come from the one overview request (its by_trunk entries carry their series: trunk_series).
 */
function Charts({ range, data }: { range: RangeChoice; data: Overview }) {
  const trunks = useMemo(() => trunkSeries(data), [data]);
  const x = useMemo(() => data.timeseries.map((p) => Date.parse(p.timestamp) / 1000), [data]);
  const partial = useMemo(
    () =>
      partialBuckets(
        range,
        data.timeseries.map((p) => p.timestamp),
      ),
    [data],
  );
  const volume = useMemo<AlignedData>(
    () => [
      x,
      data.timeseries.map((p, i) => (partial[i] ? null : p.calls)),
      data.timeseries.map((p, i) => (partial[i] ? p.calls : null)),
      data.timeseries.map((p) => (p.calls ? p.success_rate : null)),
    ],
    [data],
  );
  // Every bucket carries its own percentiles: the latency chart needs no request of its own.
  const latency = useMemo<AlignedData>(() => {
    const of = (pick: (p: Overview['timeseries'][number]) => number) =>
      data.timeseries.map((p) => (p.calls ? pick(p) : null));
    return [
      x,
      of((p) => p.avg_latency_ms),
      of((p) => p.p50_latency_ms),
      of((p) => p.p95_latency_ms),
      of((p) => p.p99_latency_ms),
    ];
  }, [data]);
  const byTrunk = useMemo<AlignedData>(
    () => [x, ...trunks.map(({ series }) => series.map((p) => (p?.calls ? p.avg_latency_ms : null)))],
    [trunks],
  );
  // Children's effects (uPlot draws) run before this one. Every chart comes with the one answer,
  // so the page is drawn and complete at once (both marks kept for bench/console).
  useEffect(() => {
    performance.mark('tl:overview-drawn');
    performance.mark('tl:overview-complete');
  }, [data]);
  const trunkSeriesSpecs = useMemo(
    () => trunks.map(({ trunk }, i) => ({ label: trunk.trunk_name, color: PALETTE[i % PALETTE.length] })),
    [trunks],
  );
  const unit = range.granularity === 'hourly' ? 'hour' : 'day';
  // Half a bucket on each side: the first and last bars are drawn whole.
  const half = bucketMs(range.granularity) / 2000;
  const xRange: [number, number] = [x[0] - half, x[x.length - 1] + half];
  const partials = partial.filter(Boolean).length;
  return (
    <div class="charts" data-testid="overview-charts" data-range={range.range} data-complete="true">
      <TimeChart
        id="volume"
        title={`Calls and success rate per ${unit}`}
        summary={`${data.summary.total_calls} calls, ${data.summary.success_rate}% connected over the range`}
        data={volume}
        series={VOLUME_SERIES}
        yLabel="calls"
        y2Label="success %"
        y2Range={[0, 100]}
        xRange={xRange}
      />
      {partials > 0 && (
        <p class="muted chart-note" data-testid="partial-note">
          Lighter bars: {partials === 1 ? 'a bucket' : 'buckets'} the range cuts ({PARTIAL_NOTE[unit]}), so fewer calls
          there says nothing by itself.
        </p>
      )}
      <TimeChart
        id="latency"
        title={`Latency per ${unit} (average, p50, p95, p99)`}
        summary={`average ${data.performance.avg_total_latency_ms} ms, p50 ${data.performance.p50_latency_ms} ms, p95 ${data.performance.p95_latency_ms} ms, p99 ${data.performance.p99_latency_ms} ms over the range`}
        data={latency}
        series={LATENCY_SERIES}
        yLabel="ms"
        xRange={xRange}
      />
      {trunks.length > 0 && (
        <TimeChart
          id="latency-by-trunk"
          title={`Average latency per ${unit}, busiest trunks`}
          summary={trunks.map(({ trunk }) => trunk.trunk_name).join(', ')}
          data={byTrunk}
          series={trunkSeriesSpecs}
          yLabel="ms"
          xRange={xRange}
        />
      )}
    </div>
  );
}

const PARTIAL_NOTE = { hour: 'the hour the range starts in and the current hour', day: 'the first and the last day' };

const VOLUME_SERIES = [
  { label: 'Calls', color: '#1f6feb', bars: true },
  { label: 'Calls (partial bucket)', color: '#93b4e8', bars: true },
  { label: 'Success rate %', color: '#15803d', scale: 'y2' as const },
];
const LATENCY_SERIES = [
  { label: 'Average', color: '#1f6feb' },
  { label: 'p50', color: '#15803d' },
  { label: 'p95', color: '#c2410c' },
  { label: 'p99', color: '#b91c1c', dash: [6, 4] },
];

function Breakdowns({ data }: { data: Overview }) {
  const codecs = Object.entries(data.quality.codec_distribution ?? {}).filter(([, share]) => share > 0);
  return (
    <div class="columns">
      <div>
        <h2>By provider</h2>
        <table>
          <TableHead columns={['Provider', 'Calls', 'Success', 'Avg latency']} />
          <tbody>
            {data.by_provider.map((p) => (
              <tr>
                <td>{p.provider}</td>
                <td>{fmtInt(p.call_count)}</td>
                <td>{fmtPct(p.success_rate)}</td>
                <td>{fmtMs(p.avg_latency_ms)}</td>
              </tr>
            ))}
          </tbody>
        </table>
        <h2>Codec mix</h2>
        <div
          class="stack"
          role="img"
          aria-label={codecs.map(([c, s]) => `${c} ${s}%`).join(', ') || 'no codec reported'}
        >
          {codecs.map(([codec, share], i) => (
            <span
              class="stack-part"
              style={{ width: `${share}%`, background: PALETTE[i % PALETTE.length] }}
              title={`${codec} ${share}%`}
            />
          ))}
        </div>
        <ul class="legend">
          {codecs.map(([codec, share], i) => (
            <li>
              <span class="swatch" style={{ background: PALETTE[i % PALETTE.length] }} />
              {codec} {fmtPct(share)}
            </li>
          ))}
        </ul>
      </div>
      <div>
        <h2>By trunk</h2>
        <table>
          <TableHead columns={['Trunk', 'Calls', 'Success']} />
          <tbody>
            {data.by_trunk.map((t) => (
              <tr>
                <td>
                  <a href={href(`/trunks/${encodeURIComponent(t.trunk_id)}`)}>{t.trunk_name}</a>
                </td>
                <td>{fmtInt(t.call_count)}</td>
                <td>{fmtPct(t.success_rate)}</td>
              </tr>
            ))}
          </tbody>
        </table>
        {data.by_trunk.length === 0 && <p class="muted">No calls in this range.</p>}
        <Failures data={data} />
        <Rejections data={data} />
      </div>
    </div>
  );
}

function ActiveAlerts({ rules }: { rules: Schemas['AlertRuleDto'][] }) {
  const active = rules.filter((rule) => rule.state === 'triggered');
  if (active.length === 0) return <p class="muted">No alert is active.</p>;
  return (
    <ul class="alerts" data-testid="active-alerts">
      {active.map((rule) => (
        <li>
          <strong>{rule.name ?? rule.id}</strong>: {rule.metric} {rule.comparison} {rule.threshold} (now{' '}
          {rule.last_value ?? '–'}), since {rule.triggered_at ?? '–'}
        </li>
      ))}
    </ul>
  );
}
