import type { Schemas } from '../api';
import { fmtMs } from '../format';

type Turn = Schemas['TurnDto'];

interface Placed {
  turn: Turn;
  /** ms from the timeline's origin. */
  start: number;
}

/**
 * Where each turn sits: at its `start_offset_ms` when the gateway reported it; otherwise after the
 * turn before it, an agent turn after its processing time (the order and gaps the record implies).
 * The origin is the call's start when offsets are known, else the first turn.
 */
function placeTurns(turns: readonly Turn[]): Placed[] {
  const placed: Placed[] = [];
  let end = 0;
  for (const turn of [...turns].sort((a, b) => a.turn_number - b.turn_number)) {
    const start = turn.start_offset_ms ?? end + (turn.speaker === 'agent' ? turn.processing_time_ms : 0);
    placed.push({ turn, start });
    end = Math.max(end, start + turn.duration_ms);
  }
  return placed;
}

const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;

/**
 * The conversation on a time axis: the caller's and the agent's turns in two lanes, each agent
 * turn preceded by its processing time (end of caller speech → first agent audio), interrupted
 * agent turns marked. The table beside it carries the same figures as text (for screen readers,
 * and to copy).
 */
export function TurnTimeline({ turns }: { turns: readonly Turn[] }) {
  if (turns.length === 0) return <p class="muted">No turns were recorded for this call.</p>;
  const placed = placeTurns(turns);
  const span = Math.max(1, ...placed.map((p) => p.start + p.turn.duration_ms));
  const pct = (ms: number) => `${Math.max(0, Math.min(100, (100 * ms) / span))}%`;
  const responded = placed.filter((p) => p.turn.speaker === 'agent' && p.turn.processing_time_ms > 0);
  const average =
    responded.length === 0
      ? null
      : Math.round(responded.reduce((sum, p) => sum + p.turn.processing_time_ms, 0) / responded.length);
  const interrupted = placed.filter((p) => p.turn.interrupted).length;
  const lane = (speaker: 'caller' | 'agent') => (
    <div class="lane">
      <span class="lane-name">{speaker === 'caller' ? 'Caller' : 'Agent'}</span>
      <div class="lane-track">
        {placed
          .filter((p) => p.turn.speaker === speaker)
          .map(({ turn, start }) => (
            <>
              {speaker === 'agent' && turn.processing_time_ms > 0 && (
                <span
                  class="turn processing"
                  style={{ left: pct(start - turn.processing_time_ms), width: pct(turn.processing_time_ms) }}
                />
              )}
              <span
                class={`turn ${speaker}${turn.interrupted ? ' interrupted' : ''}`}
                data-turn={turn.turn_number}
                style={{ left: pct(start), width: pct(turn.duration_ms) }}
              />
            </>
          ))}
      </div>
    </div>
  );
  return (
    <div class="turn-timeline" data-testid="turn-timeline">
      <p>
        {turns.length} turns over {seconds(span)}
        {average !== null && <> · agent response {fmtMs(average)} on average</>}
        {interrupted > 0 && <> · {interrupted} interrupted</>}
      </p>
      <div class="lanes" role="img" aria-label={`Turns on a time axis of ${seconds(span)}; the table below lists them`}>
        {lane('caller')}
        {lane('agent')}
        <div class="lane axis" aria-hidden="true">
          <span class="lane-name" />
          <div class="lane-track">
            <span class="tick start">0 s</span>
            <span class="tick end">{seconds(span)}</span>
          </div>
        </div>
      </div>
      <p class="legend muted" aria-hidden="true">
        <span class="swatch caller" /> caller <span class="swatch agent" /> agent <span class="swatch processing" />{' '}
        processing time <span class="swatch interrupted" /> interrupted
      </p>
      <table class="turns" data-testid="turns-table">
        <thead>
          <tr>
            <th scope="col">Turn</th>
            <th scope="col">Speaker</th>
            <th scope="col" class="num">
              Starts at
            </th>
            <th scope="col" class="num">
              Duration
            </th>
            <th scope="col" class="num">
              Processing time
            </th>
            <th scope="col">Note</th>
          </tr>
        </thead>
        <tbody>
          {placed.map(({ turn, start }) => (
            <tr>
              <td>{turn.turn_number}</td>
              <td>{turn.speaker}</td>
              <td class="num">{seconds(start)}</td>
              <td class="num">{fmtMs(turn.duration_ms)}</td>
              <td class="num">{turn.processing_time_ms > 0 ? fmtMs(turn.processing_time_ms) : '–'}</td>
              <td>{turn.interrupted ? <span class="badge interrupted">interrupted</span> : ''}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
