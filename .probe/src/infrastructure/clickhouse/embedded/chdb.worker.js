"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
/**
 * The chDB engine's thread. Only the synchronous chDB calls are used, and the message handler
 * never awaits: each message runs to completion before the next is taken, so the port's FIFO is
 * the request queue and exactly one statement runs at a time. That is what makes chDB's parameter
 * binding safe (it is not under concurrent calls), and it also means no native work is ever
 * pending on the libuv pool: a worker torn down with an async chDB call in flight aborts the whole
 * process (chdb 3.4, napi_throw during FreeEnvironment).
 */
const node_worker_threads_1 = require("node:worker_threads");
// Untyped require: chdb is an optional dependency, and the build must not need its types.
const { Session } = require('chdb');
const init = node_worker_threads_1.workerData;
const session = new Session(init.path, { connectionArgs: init.args });
const port = node_worker_threads_1.parentPort;
port.on('message', (request) => port.postMessage(handle(request)));
function handle(request) {
    try {
        return { id: request.id, ok: true, text: execute(request) };
    }
    catch (error) {
        return { id: request.id, ok: false, error: describe(error) };
    }
}
function execute(request) {
    switch (request.op) {
        case 'query':
        case 'command': {
            const bound = Object.keys(request.params).length > 0;
            const text = bound
                ? session.queryBind(request.sql, request.params, 'JSONEachRow')
                : session.query(request.sql, 'JSONEachRow');
            return request.op === 'query' ? text : '';
        }
        case 'insert':
            // The rows follow the statement as its data, as in an HTTP insert body: the parser reads
            // everything after FORMAT as JSONEachRow, never as SQL. The table name is re-checked here
            // because this is where it meets the SQL text.
            if (!/^[a-z_][a-z0-9_]*$/.test(request.table))
                throw new Error(`invalid table name: ${request.table}`);
            session.query(`INSERT INTO ${request.table} FORMAT JSONEachRow\n${request.data}`, 'JSONEachRow');
            return '';
        case 'close':
            session.close();
            return '';
    }
}
function describe(error) {
    const e = error;
    const message = typeof e?.message === 'string' ? e.message : String(error);
    return {
        message,
        clickhouseCode: typeof e?.clickhouseCode === 'number' ? e.clickhouseCode : exceptionCode(message),
        unavailable: e?.code === 'CHDB_CONNECTION' || e?.code === 'CHDB_CLOSED',
    };
}
/**
 * The synchronous calls prefix the engine's exception with "Query failed: ", so chdb's own parser
 * (anchored at the start) misses its code. This reads the same structured "Code: N. DB::Exception"
 * header, nothing else.
 */
function exceptionCode(message) {
    const match = /\bCode: (\d+)\. DB::Exception/.exec(message);
    return match ? Number(match[1]) : undefined;
}
//# sourceMappingURL=chdb.worker.js.map