"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
// Untyped require: chdb is an optional dependency, and the build must not need its types.
const { Session } = require('chdb');
const init = JSON.parse(process.env.TRUNKLINE_CHDB_INIT ?? '{}');
const session = new Session(init.path, { connectionArgs: init.args });
process.on('message', (request) => {
    const reply = handle(request);
    process.send(reply);
    if (request.op === 'close')
        process.disconnect();
});
// The parent is gone (even SIGKILLed): nobody can use this engine any more, and the data
// directory must be free for the parent's successor.
process.on('disconnect', () => process.exit(0));
process.send({ id: 0, ok: true, text: 'ready' });
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