/** The event types an endpoint may subscribe to (`ping` is sent only by the test route). */
export const WEBHOOK_EVENT_TYPES = [
  'trunk.created',
  'trunk.updated',
  'trunk.deleted',
  'trunk.password_rotated',
  'trunk.status_changed',
  'call.completed',
  'alert.triggered',
  'alert.resolved',
  'export.completed',
] as const;

export type WebhookEventType = (typeof WEBHOOK_EVENT_TYPES)[number];

/** null subscribes to every type, present and future. */
export type EventTypeFilter = WebhookEventType[] | null;

export function subscribes(filter: EventTypeFilter, type: string): boolean {
  return filter === null || (filter as string[]).includes(type);
}
