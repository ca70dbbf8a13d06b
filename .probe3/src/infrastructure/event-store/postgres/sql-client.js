"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.PgliteSqlClient = exports.PgPoolSqlClient = void 0;
/**
 * Over a pg.Pool. Parameterised statements are named, so each pooled connection parses and plans
 * a statement once and then only binds and executes it.
 */
class PgPoolSqlClient {
    pool;
    names = new Map();
    constructor(pool) {
        this.pool = pool;
    }
    async query(text, params = []) {
        const name = params.length > 0 ? this.nameOf(text) : undefined;
        const result = await this.pool.query({ name, text, values: params });
        return { rows: result.rows };
    }
    async transaction(fn) {
        const connection = await this.pool.connect();
        let broken;
        try {
            await connection.query('BEGIN');
            const result = await fn(new PgConnectionSqlClient(connection, this.names));
            await connection.query('COMMIT');
            return result;
        }
        catch (error) {
            await connection.query('ROLLBACK').catch((rollbackError) => (broken = rollbackError));
            throw error;
        }
        finally {
            // A connection that cannot even roll back is dropped rather than handed to the next caller.
            connection.release(broken);
        }
    }
    close() {
        return this.pool.end();
    }
    nameOf(text) {
        return nameStatement(this.names, text);
    }
}
exports.PgPoolSqlClient = PgPoolSqlClient;
function nameStatement(names, text) {
    let name = names.get(text);
    if (!name) {
        name = `trunkline_es_${names.size + 1}`;
        names.set(text, name);
    }
    return name;
}
/** One checked-out connection inside a transaction. */
class PgConnectionSqlClient {
    connection;
    names;
    constructor(connection, names) {
        this.connection = connection;
        this.names = names;
    }
    async query(text, params = []) {
        const name = params.length > 0 ? nameStatement(this.names, text) : undefined;
        const result = await this.connection.query({ name, text, values: params });
        return { rows: result.rows };
    }
    transaction(fn) {
        return fn(this); // already inside one
    }
    close() {
        return Promise.resolve();
    }
}
/**
 * Over one PGlite instance (a single connection). PGlite queues its own work: query(), exec()
 * and transaction() all take the same internal transaction mutex, so a transaction never
 * interleaves with other statements and no extra lock is needed here. Inside a transaction,
 * statements must go through the Transaction object (the instance's own query() would wait for
 * the mutex the transaction holds).
 */
class PgliteSqlClient {
    db;
    constructor(db) {
        this.db = db;
    }
    async query(text, params = []) {
        const result = await this.db.query(text, params);
        return { rows: result.rows };
    }
    transaction(fn) {
        return this.db.transaction((tx) => fn(new PgliteTransactionSqlClient(tx)));
    }
    async close() {
        if (!this.db.closed)
            await this.db.close();
    }
}
exports.PgliteSqlClient = PgliteSqlClient;
class PgliteTransactionSqlClient {
    tx;
    constructor(tx) {
        this.tx = tx;
    }
    async query(text, params = []) {
        const result = await this.tx.query(text, params);
        return { rows: result.rows };
    }
    transaction(fn) {
        return fn(this);
    }
    close() {
        return Promise.resolve();
    }
}
//# sourceMappingURL=sql-client.js.map