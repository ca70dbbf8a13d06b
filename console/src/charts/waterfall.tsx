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
        <caption>Average answer latency: {fmtMs(total)}</caption>
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
      </table>
    </div>
  );
}
