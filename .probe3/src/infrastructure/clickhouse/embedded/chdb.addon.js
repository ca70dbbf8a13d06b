"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.ChdbMissingError = void 0;
exports.checkChdbInstalled = checkChdbInstalled;
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
/**
 * Only checks that chdb can be found: the engine itself is loaded in its own child process, never
 * in this one (one engine per process; two in one process crash it).
 */
function checkChdbInstalled() {
    try {
        require.resolve('chdb');
    }
    catch (error) {
        throw new ChdbMissingError(error);
    }
}
//# sourceMappingURL=chdb.addon.js.map