import { useMemo, useState } from 'preact/hooks';
import type { AlignedData } from 'uplot';
import type { Schemas } from '../api';
import { inputValue } from '../components/form-errors';
import { Loading, Problem } from '../components/problem';
import { TimeChart } from '../components/time-chart';
import { useLoad } from '../use-load';
import { eventTitle } from './trunk-history';
import { overview, PRESETS } from './overview-data';

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
  const stats = useLoad(async () => ({ main: await overview(range, trunkId) }), [range]);
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
          xRange={[Date.parse(range.start) / 1000, Date.parse(range.end) / 1000]}
        />
      )}
    </>
  );
}

const SERIES = [
  { label: 'Avg latency (ms)', color: '#1f6feb' },
  { label: 'p95 (ms)', color: '#c2410c' },
  { label: 'Calls', color: '#94a3b8', scale: 'y2' as const, bars: true },
];
