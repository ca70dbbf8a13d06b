const MiB = 2 ** 20;

/**
 * Server settings of the embedded engine only (a ClickHouse server keeps its own config), given
 * to chDB as engine arguments at start-up (`--name=value`, as on a `clickhouse local` command
 * line). ClickHouse sizes its caches for a server that owns the machine: 5 GiB each for marks,
 * primary index and skipping-index marks, and a memory cap of 90 % of RAM. chDB shares the machine
 * with the app, so each is set here for the data an instance of the app holds (docs/memory.md:
 * what each cache is, what it costs when full, and the figures).
 */
export const EMBEDDED_SERVER_SETTINGS = {
  // Marks of the columns read (16 bytes per granule of 8,192 rows per column): 10M calls × ~40
  // columns is ~1 MiB of marks, so 64 MiB holds every part of far larger tables.
  mark_cache_size: 64 * MiB,
  // Marks of skipping indexes and the primary index of loaded parts: a few KiB per part here.
  index_mark_cache_size: 16 * MiB,
  primary_index_cache_size: 16 * MiB,
  // Decompressed blocks: off (ClickHouse's default too); the OS page cache holds the compressed
  // files, and the analytics read aggregated tables that are small.
  uncompressed_cache_size: 0,
  index_uncompressed_cache_size: 0,
  // Which granules matched a WHERE (repeated dashboard queries) and JIT-compiled expressions:
  // 100 and 128 MiB by default, more than our few distinct statements ever fill.
  query_condition_cache_size: 16 * MiB,
  compiled_expression_cache_size: 16 * MiB,
} as const;

/**
 * Memory every statement of the engine may use together (max_server_memory_usage), by default
 * 768 MiB. Past it a statement fails with MEMORY_LIMIT_EXCEEDED, which the port reports as
 * unavailable (503, retry): chDB refuses one statement instead of the OS killing the process
 * that holds the app's analytics. The engine's code pages (~200 MiB of libchdb.so) are not
 * counted in it, and neither is the app's process.
 */
export const DEFAULT_EMBEDDED_MEMORY_LIMIT_BYTES = 768 * MiB;

/** The engine arguments for the settings above plus the memory cap. */
export function embeddedServerArgs(memoryLimitBytes = DEFAULT_EMBEDDED_MEMORY_LIMIT_BYTES): Record<string, number> {
  return { ...EMBEDDED_SERVER_SETTINGS, max_server_memory_usage: memoryLimitBytes };
}

/**
 * V8 limits of the engine's Node process, which holds little besides each statement's text and
 * result. Every INSERT passes through it as a string of several MiB (received, prefixed with the
 * statement, converted for the engine); V8 sizes its heap for a busy app and let those dead
 * strings pile up to hundreds of MiB before collecting them. A small young generation and old
 * space make it collect them soon; 256 MiB still holds the largest result a statement returns.
 */
export const WORKER_NODE_FLAGS: readonly string[] = ['--max-semi-space-size=2', '--max-old-space-size=256'];
