/** What bench:memory and its baseline children (memory-bare.ts) share. */
export const BARE_KIND_ENV = 'BENCH_MEMORY_BARE';
export const BARE_DIR_ENV = 'BENCH_MEMORY_DIR';
export type BareKind = 'https' | 'chdb';

export interface BareReady {
  type: 'ready';
  pid: number;
}
