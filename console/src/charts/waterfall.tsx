import type { Schemas } from '../api';
import { fmtMs } from '../format';

type Call = Schemas['CallDetailDto'];

/**
 * Where the time of an answer goes: carrier, gateway, then the AI, laid end to end as one
 * response would meet them, and each agent turn's processing time beside it.
 */
export function LatencyWaterfall({ call }: { call: Call }) {
  const m = call.metrics;
  const parts: [string, number | null, string][] = [
    ['Carrier', m.carrier_lag_ms, 'carrier'],
    ['Gateway', m.gateway_processing_ms, 'gateway'],
    ['AI', m.ai_latency_ms, 'ai'],
  ];
  const turns = call.turns.filter((t) => t.processing_time_ms > 0);
  const total = parts.reduce((sum, [, ms]) => sum + (ms ?? 0), 0);
  const scale = Math.max(
    total,
    ...turns.map((t) => t.processing_time_ms + (m.carrier_lag_ms ?? 0) + (m.gateway_processing_ms ?? 0)),
    1,
  );
  let offset = 0;
  const rows = parts.map(([name, ms, kind]) => {
    const row = { name, ms, kind, left: (100 * offset) / scale, width: (100 * (ms ?? 0)) / scale };
    offset += ms ?? 0;
    return row;
  });
  return (
    <div class="waterfall" data-testid="latency-waterfall">
      <table>
        <caption>
          Mean response time per agent answer: {fmtMs(total)}{' '}
          <span class="muted">
            (this call's averages of carrier lag, gateway processing and AI latency, end to end)
          </span>
        </caption>
        <tbody>
          {rows.map((row) => (
            <tr>
              <th scope="row">{row.name}</th>
              <td class="bar-cell">
                <span class={`bar ${row.kind}`} style={{ marginLeft: `${row.left}%`, width: `${row.width}%` }} />
              </td>
              <td class="num">{fmtMs(row.ms)}</td>
            </tr>
          ))}
          {turns.map((turn) => {
            const lead = (m.carrier_lag_ms ?? 0) + (m.gateway_processing_ms ?? 0);
            return (
              <tr>
                <th scope="row">Turn {turn.turn_number}</th>
                <td class="bar-cell">
                  <span class="bar lead" style={{ width: `${(100 * lead) / scale}%` }} />
                  <span class="bar ai" style={{ width: `${(100 * turn.processing_time_ms) / scale}%` }} />
                </td>
                <td class="num">{fmtMs(turn.processing_time_ms)}</td>
              </tr>
            );
          })}
        </tbody>
        <tfoot>
          <tr>
            <th scope="row">ms</th>
            <td class="bar-cell">
              <div class="time-axis" data-testid="waterfall-axis">
                {ticks(scale).map((tick) => (
                  <span class="tick" style={{ left: `${(100 * tick) / scale}%` }}>
                    {number.format(tick)}
                  </span>
                ))}
              </div>
            </td>
            <td />
          </tr>
        </tfoot>
      </table>
    </div>
  );
}

const number = new Intl.NumberFormat('en');

/** Round ticks from 0 up to `max` ms, about five of them (1, 2 or 5 × a power of ten apart). */
export function ticks(max: number): number[] {
  const raw = max / 5;
  const power = 10 ** Math.floor(Math.log10(Math.max(raw, 1)));
  const step = [1, 2, 5, 10].map((m) => m * power).find((s) => s >= raw) ?? 10 * power;
  const out: number[] = [];
  for (let t = 0; t <= max; t += step) out.push(t);
  return out;
}
