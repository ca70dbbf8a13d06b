"use strict";
/** IPC and files between ingest.bench.ts and its two children (the app, the direct insert). */
Object.defineProperty(exports, "__esModule", { value: true });
exports.TRUNKS_ENV = exports.STATS_FILE_ENV = exports.DIRECT_SPEC_ENV = void 0;
exports.DIRECT_SPEC_ENV = 'BENCH_INGEST_DIRECT_SPEC';
exports.STATS_FILE_ENV = 'BENCH_INGEST_STATS_FILE';
exports.TRUNKS_ENV = 'BENCH_INGEST_TRUNKS';
//# sourceMappingURL=ingest-messages.js.map