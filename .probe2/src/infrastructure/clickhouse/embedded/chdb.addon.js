"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.ChdbMissingError = void 0;
exports.loadChdbAddon = loadChdbAddon;
/** chdb is an optional dependency: the server adapter must work where it is not installed. */
class ChdbMissingError extends Error {
    cause;
    constructor(cause) {
        const reason = cause instanceof Error ? cause.message.split('\n')[0] : String(cause);
        super(`embedded ClickHouse needs the optional dependency "chdb" (Linux x64/arm64 glibc or macOS), which could not be loaded: ${reason}. ` +
            'Install it (npm install chdb) or set CLICKHOUSE_URL to a ClickHouse server.');
        this.cause = cause;
        this.name = 'ChdbMissingError';
    }
}
exports.ChdbMissingError = ChdbMissingError;
let loaded = false;
/**
 * Loads the chDB addon into the main thread, where it stays. This is not only a presence check:
 * Node unloads a native addon when the last thread that loaded it exits, and unloading libchdb
 * runs the engine's static destructors, which crashes the process (segfault on every worker exit
 * or restart with chdb 3.4). Held here, the library outlives any worker.
 */
function loadChdbAddon() {
    if (loaded)
        return;
    try {
        require('chdb');
    }
    catch (error) {
        throw new ChdbMissingError(error);
    }
    loaded = true;
}
//# sourceMappingURL=chdb.addon.js.map