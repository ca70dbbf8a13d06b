import { useCallback, useEffect, useRef, useState } from 'preact/hooks';
import { ApiError } from './api';

export interface Loaded<T> {
  /** The answer for the current deps only: never an older range's or page's data. */
  data: T | null;
  error: ApiError | null;
  loading: boolean;
  reload: () => void;
}

interface State<T> {
  data: T | null;
  error: ApiError | null;
  /** The run (one per deps) the data belongs to. */
  owner: unknown;
}

/**
 * Runs `load` when `deps` change, with an AbortSignal that is aborted when the deps change again,
 * on reload and when the page is left: the requests of a range or page nobody looks at any more
 * are cancelled, and a late answer (one that beat the abort) is dropped. Data loaded for other deps
 * is never returned; a reload of the same deps keeps showing the last answer until the new one.
 */
export function useLoad<T>(load: (signal: AbortSignal) => Promise<T>, deps: unknown[]): Loaded<T> {
  const [state, setState] = useState<State<T>>({ data: null, error: null, owner: null });
  const [busy, setBusy] = useState(false);
  const current = useRef<AbortController | null>(null);
  const run = useCallback(() => {
    current.current?.abort();
    const controller = new AbortController();
    current.current = controller;
    setBusy(true);
    const settle = (next: Omit<State<T>, 'owner'>) => {
      if (controller.signal.aborted) return;
      current.current = null;
      setState({ ...next, owner: run });
      setBusy(false);
    };
    load(controller.signal).then(
      (data) => settle({ data, error: null }),
      (error: unknown) => settle({ data: null, error: asApiError(error) }),
    );
  }, deps);
  useEffect(() => {
    run();
    return () => {
      current.current?.abort();
      current.current = null;
    };
  }, [run]);
  const mine = state.owner === run;
  return {
    data: mine ? state.data : null,
    error: mine ? state.error : null,
    loading: !mine || busy,
    reload: run,
  };
}

export function asApiError(error: unknown): ApiError {
  return error instanceof ApiError
    ? error
    : new ApiError(0, 'client_error', String((error as Error)?.message ?? error));
}
