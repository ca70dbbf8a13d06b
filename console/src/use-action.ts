import { useState } from 'preact/hooks';
import type { ApiError } from './api';
import { asApiError } from './use-load';

/** Runs a button's API call; its failure is kept for the page to show, then `after` (a reload) runs on success. */
export function useAction(after?: () => void) {
  const [problem, setProblem] = useState<ApiError | null>(null);
  const run = async (action: () => Promise<unknown>): Promise<void> => {
    setProblem(null);
    try {
      await action();
      after?.();
    } catch (error) {
      setProblem(asApiError(error));
    }
  };
  return { problem, run };
}
