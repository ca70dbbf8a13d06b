import { Inject, Injectable, OnModuleInit, Optional } from '@nestjs/common';
import { CallBatchObserver } from '../../calls/ingestion/call-batch-listener.port';
import { EnrichedCallRecord } from '../../calls/ingestion/call-record.row';
import { CLUSTER, ClusterServices } from '../../infrastructure/cluster/cluster.port';
import { RejectionBatchObserver } from '../../rejections/ingestion/rejection-batch-observer.port';

type Waker = () => void;

/**
 * "Something was stored for account X": wakes the reader of X's open streams (account-feed.ts) on
 * this instance at once, and on every other instance through the cluster bus. A notice only saves
 * time: a reader reads the store on its own every CALL_STREAM_POLL_MS, so a notice lost with a bus
 * connection delays, never loses (and a resubscribed bus wakes every reader).
 */
@Injectable()
export class StoredNotices implements CallBatchObserver, RejectionBatchObserver, OnModuleInit {
  private readonly waiting = new Map<string, Set<Waker>>();
  private readonly channel: string | null;

  constructor(@Optional() @Inject(CLUSTER) private readonly cluster: ClusterServices | null = null) {
    this.channel = cluster ? `${cluster.namespace}live:stored` : null;
  }

  async onModuleInit(): Promise<void> {
    if (!this.cluster || !this.channel) return;
    this.cluster.bus.onResync(() => this.wakeAll());
    await this.cluster.bus.subscribe(this.channel, (accountId) => this.wake(accountId));
  }

  callsStored(records: EnrichedCallRecord[]): void {
    this.stored(records.map((r) => r.account_id));
  }

  rejectionsStored(accountIds: string[]): void {
    this.stored(accountIds);
  }

  /** Until `wake` is called for the account; the returned function stops listening. */
  listen(accountId: string, waker: Waker): () => void {
    let set = this.waiting.get(accountId);
    if (!set) this.waiting.set(accountId, (set = new Set()));
    set.add(waker);
    return () => {
      set.delete(waker);
      if (set.size === 0 && this.waiting.get(accountId) === set) this.waiting.delete(accountId);
    };
  }

  private stored(accountIds: string[]): void {
    for (const accountId of new Set(accountIds)) {
      this.wake(accountId);
      if (this.cluster && this.channel) void this.cluster.bus.publish(this.channel, accountId).catch(() => undefined);
    }
  }

  private wake(accountId: string): void {
    for (const waker of this.waiting.get(accountId) ?? []) waker();
  }

  private wakeAll(): void {
    for (const set of this.waiting.values()) for (const waker of set) waker();
  }
}
