import type { GlobalPosition } from '../../infrastructure/event-store/event-store.port';

/**
 * What a webhook command answers: where its events landed. The HTTP edge waits for the webhook
 * read models to reach that position and answers with the view, so the write side never reads one.
 */
export interface WebhookWrite {
  position: GlobalPosition | null;
}
