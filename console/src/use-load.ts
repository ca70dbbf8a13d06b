import { useCallback, useEffect, useRef, useState } from 'preact/hooks';
import { ApiError } from './api';

export interface Loaded<T> {
  data: T | null;
  error: ApiError | null;
  loading: boolean;
  reload: () => void;
}

/** Runs `load` when `deps` change; a late answer to an older request never overwrites a newer one. */
export function useLoad<T>(load: () => Promise<T>, deps: unknown[]): Loaded<T> {
  const [state, setState] = useState<{ data: T | null; error: ApiError | null; loading: boolean }>({
    data: null,
    error: null,
    loading: true,
  });
  const generation = useRef(0);
  // The render that brings new deps comes before the effect that starts their request: until that
  // request is under way, what is shown belongs to the old deps, so it counts as loading.
  const started = useRef<(() => void) | null>(null);
  const run = useCallback(() => {
    started.current = run;
    const mine = ++generation.current;
    setState((previous) => ({ ...previous, loading: true }));
    load().then(
      (data) => mine === generation.current && setState({ data, error: null, loading: false }),
      (error: unknown) =>
        mine === generation.current && setState({ data: null, error: asApiError(error), loading: false }),
    );
  }, deps);
  useEffect(run, [run]);
  return { ...state, loading: state.loading || started.current !== run, reload: run };
}

export function asApiError(error: unknown): ApiError {
  return error instanceof ApiError
    ? error
    : new ApiError(0, 'client_error', String((error as Error)?.message ?? error));
}
