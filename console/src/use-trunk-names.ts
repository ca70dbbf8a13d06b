import { api, call, type ApiError } from './api';
import { currentSession } from './session';
import { useLoad } from './use-load';

/**
 * Names already looked up, per signed-in key: a trunk's name, or null when the API answered 404
 * (deleted, or not this key's), so a page shown again asks nothing.
 */
const cache = new Map<string, string | null>();
const cacheKey = (id: string) => `${currentSession()?.key ?? ''}\n${id}`;

/**
 * Names for the trunks of the rows being shown, for any number of trunks. Names come first from
 * `listed` (the trunk list the page loads anyway for its picker), then from the names already
 * looked up; the rest are asked by id (`GET /trunks/{id}`, the API has no filter by several ids),
 * all at once rather than one after another, once each per distinct trunk, with the load's
 * AbortSignal (left page, next page, other filters). `ready` holds the look-ups until the list has
 * answered, so the trunks it names are never asked one by one. A trunk that cannot be named shows
 * its id.
 */
export function useTrunkNames(
  ids: readonly string[],
  listed: readonly { id: string; name: string }[] | undefined,
  ready: boolean,
): Map<string, string> {
  const names = new Map<string, string>();
  for (const id of ids) {
    const known = cache.get(cacheKey(id));
    if (known) names.set(id, known);
  }
  for (const t of listed ?? []) names.set(t.id, t.name);
  const missing = [...new Set(ids)].filter((id) => !names.has(id) && !cache.has(cacheKey(id))).sort();
  useLoad(
    async (signal) => {
      if (!ready || missing.length === 0) return;
      await Promise.all(
        missing.map((id) =>
          call(api().GET('/trunks/{id}', { signal, params: { path: { id } } })).then(
            (trunk) => {
              if (!signal.aborted) cache.set(cacheKey(id), trunk.name);
            },
            (error: ApiError) => {
              // 404: deleted or not this key's trunk; anything else (an abort too) is asked again later.
              if (!signal.aborted && error.status === 404) cache.set(cacheKey(id), null);
            },
          ),
        ),
      );
    },
    [ready, missing.join(',')],
  );
  return names;
}
