import { Inject } from '@nestjs/common';
import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { READ_MODEL_STORE, ReadModelStore } from '../../infrastructure/read-model/read-model-store.port';
import { gatewayChangeCodec, trunkKeys } from '../projections/trunk-view';

export class ListGatewayChanges {
  /**
   * `after`: the cursor of the gateway's previous poll (Unix ms), null on its first. `accountId`:
   * the changes of that account only (an account's own key), or of every account (null: a gateway key).
   */
  constructor(
    readonly accountId: string | null,
    readonly after: number | null,
    readonly now: Date,
  ) {}
}

export interface GatewayChanges {
  /** Lower-case user names whose lookup changed since `after` (and within the overlap before it). */
  changes: string[];
  /** Pass as `after` on the next poll. */
  cursor: string;
  /** Drop every cached lookup: a first poll, or more changes than one answer lists. */
  flush: boolean;
}

/**
 * Changes are looked for from OVERLAP_MS before the cursor: a change is stamped with the clock of
 * the instance that decided it and becomes visible once its projection ran, so it may carry a
 * time before the cursor of a poll that did not see it yet. The overlap covers that delay (the
 * write's read-your-writes wait is bounded by CONSISTENCY_TIMEOUT_MS, 5 s by default) and clock
 * skew between instances; evicting a name twice only costs the gateway one more lookup.
 */
export const OVERLAP_MS = 10_000;
const PAGE = 256;
const MAX_CHANGES = 2048;

@QueryHandler(ListGatewayChanges)
export class ListGatewayChangesHandler implements IQueryHandler<ListGatewayChanges, GatewayChanges> {
  constructor(@Inject(READ_MODEL_STORE) private readonly store: ReadModelStore) {}

  async execute({ accountId, after, now }: ListGatewayChanges): Promise<GatewayChanges> {
    const cursor = String(now.getTime());
    if (after === null) return { changes: [], cursor, flush: true };
    const since = after - OVERLAP_MS;
    const changes: string[] = [];
    for (let offset = 0; ; offset += PAGE) {
      const page = await this.store.page(trunkKeys.gatewayChanges, trunkKeys.gatewayChangePrefix, offset, PAGE, 'desc');
      for (const value of page.values) {
        const change = gatewayChangeCodec.decode(value);
        if (!change) continue;
        if (Date.parse(change.changed_at) < since) return { changes, cursor, flush: false };
        if (accountId !== null && change.account_id !== accountId) continue;
        if (changes.length === MAX_CHANGES) return { changes: [], cursor, flush: true };
        changes.push(change.sip_username);
      }
      if (page.values.length < PAGE) return { changes, cursor, flush: false };
    }
  }
}
