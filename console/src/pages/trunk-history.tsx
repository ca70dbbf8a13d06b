import type { Schemas } from '../api';
import { fmtTime } from '../format';
import { href } from '../router';

type HistoryEvent = Schemas['TrunkHistoryEventDto'];

const TITLES: Record<string, string> = {
  TrunkCreated: 'Created',
  TrunkUpdated: 'Configuration changed',
  SipPasswordRotated: 'SIP password rotated',
  TrunkDeleted: 'Deleted',
  TrunkHealthChanged: 'Health changed',
};

/** What an event changed, as "field: value" lines (the API already redacts secrets). */
function changesOf(event: HistoryEvent): [string, string][] {
  const data = event.data as Record<string, unknown>;
  const source = (data.changes as Record<string, unknown> | undefined) ?? data;
  return Object.entries(source)
    .filter(
      ([name]) => !['trunk_id', 'account_id', 'created_at', 'updated_at', 'rotated_at', 'deleted_at'].includes(name),
    )
    .flatMap(([name, value]) => settingFields(name, value));
}

const LABELS: Record<string, string> = {
  vad: 'Voice detection',
  provider_settings: 'Provider',
  threshold: 'threshold',
  prefix_padding_ms: 'prefix padding (ms)',
  silence_duration_ms: 'silence before end of turn (ms)',
  allowed_addresses: 'Allowed addresses',
};

/**
 * A setting as "name: value" lines an operator reads: nested settings (voice detection, provider)
 * one line per field, lists joined, empty ones as "–"; never raw JSON.
 */
export function settingFields(name: string, value: unknown): [string, string][] {
  const label = LABELS[name] ?? name.replace(/_/g, ' ');
  if (value == null) return [[label, '–']];
  if (Array.isArray(value)) return [[label, value.length ? value.map(String).join(', ') : '–']];
  if (typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>);
    if (entries.length === 0) return [[label, '–']];
    return entries.flatMap(([field, inner]) =>
      settingFields(field, inner).map(([l, v]): [string, string] => [`${label}: ${l}`, v]),
    );
  }
  return [[label, String(value)]];
}

export function eventTitle(type: string): string {
  return TITLES[type] ?? type;
}

/**
 * The trunk's history from /v1/trunks/{id}/events, newest first, each with who made it (the key's
 * name, its id when it has none: a system actor, a key not of this account) and a link to the
 * state it left.
 */
export function HistoryTimeline({ trunkId, events }: { trunkId: string; events: HistoryEvent[] }) {
  return (
    <ol class="timeline" data-testid="history-timeline">
      {[...events].reverse().map((event) => (
        <li>
          <div class="timeline-head">
            <strong>{eventTitle(event.type)}</strong>{' '}
            <time dateTime={event.recorded_at}>{fmtTime(event.recorded_at)}</time>
            {event.actor && (
              <span class="muted" data-testid="history-actor" title={event.actor}>
                {' '}
                by {event.actor_name ?? event.actor}
              </span>
            )}
          </div>
          <dl class="changes">
            {changesOf(event).map(([name, value]) => (
              <>
                <dt>{name}</dt>
                <dd>{value}</dd>
              </>
            ))}
          </dl>
          {event.type !== 'TrunkDeleted' && (
            <a href={href(`/trunks/${encodeURIComponent(trunkId)}`, { as_of: event.recorded_at })}>
              State after this change
            </a>
          )}
        </li>
      ))}
    </ol>
  );
}
