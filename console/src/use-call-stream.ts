import { useEffect, useState } from 'preact/hooks';
import type { Schemas } from './api';
import { currentSession } from './session';

export type LiveCall = Schemas['CallChangeDto'];

/**
 * The account's calls as they are stored (GET /v1/calls/stream, docs/analytics.md "Calls as they
 * happen"), newest first, one entry per call (its latest version). fetch() rather than
 * EventSource: the key goes in the Authorization header, which EventSource cannot send. A
 * dropped stream reconnects after a second with Last-Event-ID, so no call is missed; leaving the
 * page, or a change of `resetKey` (the filters), aborts it and starts over empty.
 */
export function useCallStream(enabled: boolean, resetKey: string): LiveCall[] {
  const [calls, setCalls] = useState<LiveCall[]>([]);
  useEffect(() => {
    setCalls([]);
    const key = currentSession()?.key;
    if (!enabled || !key) return;
    const abort = new AbortController();
    const take = (call: LiveCall) =>
      setCalls((shown) => {
        const old = shown.find((c) => c.id === call.id);
        if (old && old.version >= call.version) return shown;
        return [call, ...shown.filter((c) => c.id !== call.id)].slice(0, 200);
      });
    void follow(key, abort.signal, take);
    return () => abort.abort();
  }, [enabled, resetKey]);
  return calls;
}

async function follow(key: string, signal: AbortSignal, take: (call: LiveCall) => void): Promise<void> {
  let lastEventId: string | null = null;
  let wait = 1000;
  while (!signal.aborted) {
    try {
      const response: Response = await fetch(`${location.origin}/v1/calls/stream`, {
        headers: { authorization: `Bearer ${key}`, ...(lastEventId ? { 'last-event-id': lastEventId } : {}) },
        signal,
      });
      // 401/403: the page's own requests report it; a stream is an extra, not a reason to sign out.
      if (response.status === 401 || response.status === 403) return;
      if (response.ok && response.body) {
        for await (const event of events(response.body)) {
          lastEventId = event.id || lastEventId;
          if (event.event === 'call') take(JSON.parse(event.data) as LiveCall);
        }
      } else if (response.status === 400) lastEventId = null;
      // 429, 503: as long as the service asks (Retry-After, seconds).
      else wait = 1000 * Math.min(60, Math.max(1, Number(response.headers.get('retry-after')) || 1));
    } catch {
      // A dropped connection (or the abort): retried below unless aborted.
    }
    await new Promise((resolve) => setTimeout(resolve, wait));
    wait = 1000;
  }
}

/** The events of a text/event-stream body, block by block. */
interface StreamEvent {
  id: string;
  event: string;
  data: string;
}

async function* events(body: ReadableStream<Uint8Array>): AsyncGenerator<StreamEvent> {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  let pending = '';
  for (;;) {
    const { value, done } = await reader.read();
    if (done) return;
    pending += decoder.decode(value, { stream: true });
    let end: number;
    while ((end = pending.indexOf('\n\n')) >= 0) {
      const fields: Record<string, string> = {};
      for (const line of pending.slice(0, end).split('\n')) {
        const colon = line.indexOf(':');
        if (colon === 0) continue;
        fields[colon < 0 ? line : line.slice(0, colon)] = colon < 0 ? '' : line.slice(colon + 1).replace(/^ /, '');
      }
      pending = pending.slice(end + 2);
      if (fields.data !== undefined) yield { id: fields.id ?? '', event: fields.event ?? 'message', data: fields.data };
    }
  }
}

type Listed = Schemas['CallListItemDto'];

/**
 * The page's calls with the live ones that match its filters on top (a call already listed is
 * replaced by its newer version in place). Filters the stream cannot judge here (numbers, dates)
 * show no live calls: a reload answers them exactly.
 */
export function withLiveCalls(listed: Listed[], live: LiveCall[], filters: Record<string, string>): Listed[] {
  const exact = ['trunk_id', 'status', 'direction'] as const;
  if (Object.entries(filters).some(([name, value]) => value && !(exact as readonly string[]).includes(name)))
    return listed;
  const fits = live.filter((call) => exact.every((name) => !filters[name] || call[name] === filters[name]));
  const latest = new Map(fits.map((call) => [call.id, call]));
  const fresh = fits.filter((call) => !listed.some((c) => c.id === call.id));
  return [...fresh, ...listed.map((call) => latest.get(call.id) ?? call)];
}
