import type { EventStore } from '../../src/infrastructure/event-store/event-store.port';
import { appendCases } from './event-store/append.cases';
import { chainCases } from './event-store/chain.cases';
import {
  CASE,
  type CaseRegistrar,
  type ContractContext,
  type ContractOptions,
  type OpenSettings,
} from './event-store/cases';
import { lifecycleCases } from './event-store/lifecycle.cases';
import { readCases } from './event-store/read.cases';
import { subscribeCases } from './event-store/subscribe.cases';

export { CASE, type ContractCase, type ContractOptions, type HeldAppend, type OpenSettings } from './event-store/cases';

/**
 * The one conformance suite every EventStore adapter runs. `open()` opens a new instance on the
 * same underlying data (same database and schema, same data directory); the suite closes what it
 * opens. A skipped case is still registered, and prints its reason every run.
 */
export function eventStoreContract(
  adapterName: string,
  open: (settings?: OpenSettings) => Promise<EventStore>,
  options: ContractOptions = {},
): void {
  describe(`EventStore contract (${adapterName})`, () => {
    let shared: EventStore | undefined;
    const ctx: ContractContext = {
      store: () => {
        if (!shared) throw new Error('the shared store is not open');
        return shared;
      },
      reopen: async (settings) => {
        await shared?.close();
        shared = undefined; // if open() fails, afterAll must not close it twice
        shared = await open(settings);
        return shared;
      },
      open,
      options,
    };

    beforeAll(async () => {
      shared = await open();
    });

    afterAll(async () => {
      await shared?.close();
    });

    const test: CaseRegistrar = (name, body, timeoutMs) => {
      const reason = options.skip?.[name];
      if (reason === undefined) {
        it(name, body, timeoutMs);
      } else {
        it(`${name} [skipped: ${reason}]`, () => {
          console.warn(`[event-store contract: ${adapterName}] skipped "${name}": ${reason}`);
        });
      }
    };

    appendCases(test, ctx);
    readCases(test, ctx);
    subscribeCases(test, ctx);
    lifecycleCases(test, ctx);
    chainCases(test, ctx);

    it('skips only cases that exist', () => {
      const known = new Set<string>(Object.values(CASE));
      expect(Object.keys(options.skip ?? {}).filter((name) => !known.has(name))).toEqual([]);
    });
  });
}
