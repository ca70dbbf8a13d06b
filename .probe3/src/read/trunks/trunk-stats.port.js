"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.NO_CALLS = exports.TRUNK_STATS_READER = void 0;
exports.TRUNK_STATS_READER = Symbol('TrunkStatsReader');
exports.NO_CALLS = Object.freeze({ calls_today: 0, success_rate: 0, avg_latency_ms: 0 });
//# sourceMappingURL=trunk-stats.port.js.map