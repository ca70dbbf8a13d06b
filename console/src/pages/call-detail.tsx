import { api, call } from '../api';
import { SipLadder } from '../charts/sip-ladder';
import { TurnTimeline } from '../charts/turn-timeline';
import { LatencyWaterfall } from '../charts/waterfall';
import { Loading, Problem } from '../components/problem';
import { fmtDuration, fmtMs, fmtPct, fmtTime } from '../format';
import { href } from '../router';
import { useLoad } from '../use-load';

export function CallDetailPage({ id }: { id: string }) {
  const detail = useLoad((signal) => call(api().GET('/calls/{id}', { signal, params: { path: { id } } })), [id]);
  const trunkId = detail.data?.trunk_id;
  // The trunk's name (a deleted trunk answers 404: then its id stands in).
  const trunk = useLoad(
    (signal) =>
      trunkId ? call(api().GET('/trunks/{id}', { signal, params: { path: { id: trunkId } } })) : Promise.resolve(null),
    [trunkId],
  );
  if (detail.error) return <Problem error={detail.error} what="read calls" />;
  if (!detail.data) return <Loading />;
  const c = detail.data;
  const rows: [string, string][] = [
    ['Status', c.status],
    ['Direction', c.direction],
    ['From', c.from],
    ['To', c.to],
    ['Start', fmtTime(c.start_time)],
    ['End', fmtTime(c.end_time)],
    ['Duration', fmtDuration(c.duration_seconds)],
    ['Billable', fmtDuration(c.billable_seconds)],
    ['Disconnect reason', c.disconnect_reason ?? '–'],
  ];
  const quality: [string, string][] = [
    ['Codec', c.metrics.codec_used ?? '–'],
    ['Packet loss', fmtPct(c.metrics.packet_loss_percent)],
    ['Jitter', fmtMs(c.metrics.jitter_ms)],
    ['MOS', fmtMos(c.metrics.mos)],
  ];
  return (
    <section>
      <p>
        <a href={href('/calls')}>← Calls</a>
      </p>
      <h1>
        Call <code>{c.id}</code>
      </h1>
      <p>
        Trunk{' '}
        <a href={href(`/trunks/${encodeURIComponent(c.trunk_id)}`)} data-testid="call-trunk">
          {trunk.data?.name ?? c.trunk_id}
        </a>
      </p>
      <div class="columns">
        <dl class="facts">
          {rows.map(([label, value]) => (
            <>
              <dt>{label}</dt>
              <dd>{value}</dd>
            </>
          ))}
        </dl>
        <div>
          <h2>Quality</h2>
          <dl class="facts">
            {quality.map(([label, value]) => (
              <>
                <dt>{label}</dt>
                <dd>{value}</dd>
              </>
            ))}
          </dl>
        </div>
      </div>
      <h2>Turns</h2>
      <TurnTimeline turns={c.turns} />
      <h2>Latency waterfall</h2>
      <LatencyWaterfall call={c} />
      <h2>SIP trace</h2>
      {c.sip_trace ? <SipLadder trace={c.sip_trace} /> : <p class="muted">No SIP trace was recorded for this call.</p>}
    </section>
  );
}

/**
 * MOS with what it means to callers: ITU-T G.107's user satisfaction bands (R ≥ 80 satisfied,
 * 70-80 some users dissatisfied, 60-70 many, below 60 nearly all), as MOS.
 */
function fmtMos(mos: number | null): string {
  if (mos == null) return '–';
  const band = mos >= 4.03 ? 'satisfied' : mos >= 3.6 ? 'some dissatisfied' : mos >= 3.1 ? 'many dissatisfied' : 'poor';
  return `${mos.toFixed(2)} (${band})`;
}
