import type { Redis } from 'ioredis';
import type { WriteOp } from '../read-model/read-model-store.port';
import type { LeaderLease, LeaderTerm } from './leader-lease.port';

export type MessageHandler = (message: string) => void;

/** Publish/subscribe between the instances sharing one Redis. */
export interface MessageBus {
  subscribe(channel: string, handler: MessageHandler): Promise<void>;
  /** After a lost subscriber connection comes back: messages may have been missed. */
  onResync(handler: () => void): void;
  /** False while the subscriber connection is down: messages sent now are lost to this instance. */
  readonly connected: boolean;
  /** Resolves with the number of instances that received it. */
  publish(channel: string, message: string): Promise<number>;
  /** Resolves true once every listening instance acknowledged, false past the timeout. */
  publishAcked(channel: string, message: string, timeoutMs: number): Promise<boolean>;
  subscribeAcked(channel: string, handler: MessageHandler): Promise<void>;
  close(): Promise<void>;
}

export interface AppliedCount {
  /** Full Redis key of a hash whose `events` field counts every event applied (ops metric). */
  key: string;
  events: number;
}

export interface CheckpointTarget {
  /** Full Redis key of the checkpoint (namespace included). */
  key: string;
  /** Pub/sub channel told every new checkpoint. */
  channel: string;
  /**
   * Full Redis key written with the announcement, where it differs from `key`: the checkpoint the
   * waiters read, which a deferred announcement (write(..., deferAnnouncement)) leaves behind `key`
   * until announce() names it as `key`.
   */
  announcedKey?: string;
}

/** Read-model writes and their checkpoint, applied only while the writer's lease term holds. */
export interface FencedWriter {
  write(
    term: LeaderTerm,
    prefix: string,
    ops: WriteOp[],
    checkpoint: CheckpointTarget & { value: string },
    applied?: AppliedCount,
    /** Only the checkpoint `key` now; the announcement (announcedKey, the channel) by a later announce(). */
    deferAnnouncement?: boolean,
  ): Promise<void>;
  /** Only the checkpoint, announced: for a projection whose writes go elsewhere (ClickHouse), or a deferred announcement. */
  announce(term: LeaderTerm, checkpoint: CheckpointTarget & { value: string }): Promise<void>;
}

/** What instances sharing one Redis use to coordinate: leases, fenced writes, pub/sub. */
export interface ClusterServices {
  redis: Redis;
  /** REDIS_NAMESPACE: leases, channels and shared checkpoints live under it. */
  namespace: string;
  lease: LeaderLease;
  writer: FencedWriter;
  bus: MessageBus;
}

/** null without REDIS_URL: one process, nothing to coordinate. */
export const CLUSTER = Symbol('Cluster');
