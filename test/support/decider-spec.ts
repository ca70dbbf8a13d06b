import { Decider, fold } from '../../src/shared/decider';
import { DomainError, ErrorCode } from '../../src/shared/domain-error';

/** given(events).when(command).then(events) | .thenThrows(code) — one line per rule. */
export function deciderSpec<C, E, S>(decider: Decider<C, E, S>) {
  return {
    given(history: E[]) {
      const state = fold(decider, history);
      return {
        when(command: C) {
          const run = () => decider.decide(command, state);
          return {
            then(expected: E[]): void {
              expect(run()).toEqual(expected);
            },
            thenThrows(code: ErrorCode, param?: string): void {
              let caught: unknown;
              try {
                run();
              } catch (error) {
                caught = error;
              }
              expect(caught).toBeInstanceOf(DomainError);
              expect((caught as DomainError).code).toBe(code);
              if (param !== undefined) expect((caught as DomainError).details.param).toBe(param);
            },
          };
        },
      };
    },
  };
}
