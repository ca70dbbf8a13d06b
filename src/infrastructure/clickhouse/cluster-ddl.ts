import { closingBracket, splitTopLevel } from './ddl-scan';

/**
 * Cluster mode (CLICKHOUSE_CLUSTER): the same migrations, rewritten for a sharded and replicated
 * cluster. Each MergeTree-family table `t` becomes
 *   - `t_local` ON CLUSTER, engine Replicated<Engine> (Keeper path per shard), on every node;
 *   - `t` ON CLUSTER, engine Distributed over `t_local`, sharded by cityHash64 of the first
 *     ORDER BY column;
 * so every query keeps naming `t`. Rows that must collapse, replace or aggregate together share
 * their sorting key, hence its first column, hence their shard: FINAL and the signed sums stay
 * exact per shard, and the Distributed table adds up the shards.
 * A materialized view `TO t` reads `s_local` and writes `t_local` on each node (both sharded the
 * same way, see the rules in docs/scaling.md). Anything else is refused with ClusterDdlError, so
 * a migration this cannot translate fails its test rather than a deployment.
 */
export class ClusterDdlError extends Error {
  constructor(
    message: string,
    readonly statement: string,
  ) {
    super(`${message}: ${statement.trim().slice(0, 120)}`);
    this.name = 'ClusterDdlError';
  }
}

export const LOCAL_SUFFIX = '_local';

/** Every statement of the migrations, in order, for the cluster: one list per migration. */
export function clusterMigrationStatements(migrations: readonly { sql: string[] }[], cluster: string): string[][] {
  const schema = new ClusterSchema(cluster);
  return migrations.map((migration) => migration.sql.flatMap((statement) => clusterStatements(statement, schema)));
}

/** What earlier statements created: sharded tables are addressed through their local part. */
export class ClusterSchema {
  readonly sharded = new Set<string>();
  constructor(readonly cluster: string) {
    if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(cluster)) throw new Error(`not a cluster name: ${cluster}`);
  }
}

const NAME = '([A-Za-z_][A-Za-z0-9_]*)';
const CREATE_TABLE = new RegExp(`^\\s*CREATE\\s+TABLE\\s+(?:IF\\s+NOT\\s+EXISTS\\s+)?${NAME}\\s*\\(`, 'i');
const CREATE_MV = new RegExp(
  `^\\s*CREATE\\s+MATERIALIZED\\s+VIEW\\s+(?:IF\\s+NOT\\s+EXISTS\\s+)?${NAME}\\s+TO\\s+${NAME}\\s+AS\\s+([\\s\\S]+)$`,
  'i',
);
const CREATE_VIEW = new RegExp(`^\\s*CREATE\\s+VIEW\\s+(?:IF\\s+NOT\\s+EXISTS\\s+)?${NAME}\\s+AS\\s+([\\s\\S]+)$`, 'i');
const ALTER = new RegExp(`^\\s*ALTER\\s+TABLE\\s+${NAME}\\s+([\\s\\S]+)$`, 'i');
const DROP = new RegExp(`^\\s*DROP\\s+(TABLE|VIEW)\\s+(?:IF\\s+EXISTS\\s+)?${NAME}(?:\\s+SYNC)?\\s*$`, 'i');
const TRUNCATE = new RegExp(`^\\s*TRUNCATE\\s+TABLE\\s+(?:IF\\s+EXISTS\\s+)?${NAME}(?:\\s+SYNC)?\\s*$`, 'i');
const INSERT = new RegExp(`^\\s*INSERT\\s+INTO\\s+(?:TABLE\\s+)?${NAME}\\b`, 'i');
const COLUMN_ACTION = /^(ADD|DROP|MODIFY|RENAME|COMMENT|CLEAR)\s+COLUMN\b/i;

/** The statements to run on the cluster for one statement of a migration. */
export function clusterStatements(statement: string, schema: ClusterSchema): string[] {
  const on = `ON CLUSTER '${schema.cluster}'`;
  let m: RegExpExecArray | null;
  if ((m = CREATE_TABLE.exec(statement))) return createTable(statement, m[1], m[0].length - 1, schema, on);
  if ((m = CREATE_MV.exec(statement))) {
    const [, view, target, select] = m;
    if (!schema.sharded.has(target))
      throw new ClusterDdlError(`materialized view target ${target} is not a table of the migrations`, statement);
    return [
      `CREATE MATERIALIZED VIEW IF NOT EXISTS ${view} ${on} TO ${target}${LOCAL_SUFFIX} AS ${localSources(select, schema)}`,
    ];
  }
  if ((m = CREATE_VIEW.exec(statement))) return [`CREATE VIEW IF NOT EXISTS ${m[1]} ${on} AS ${m[2]}`];
  if ((m = ALTER.exec(statement))) {
    const [, table, action] = m;
    if (!schema.sharded.has(table)) return [`ALTER TABLE ${table} ${on} ${action}`];
    const local = `ALTER TABLE ${table}${LOCAL_SUFFIX} ${on} ${action}`;
    // Columns live in both parts; indexes, TTLs and settings only where the data is.
    return COLUMN_ACTION.test(action.trim()) ? [local, `ALTER TABLE ${table} ${on} ${action}`] : [local];
  }
  if ((m = DROP.exec(statement))) {
    const [, kind, name] = m;
    if (kind.toUpperCase() === 'VIEW' || !schema.sharded.has(name))
      return [`DROP ${kind.toUpperCase()} IF EXISTS ${name} ${on} SYNC`];
    schema.sharded.delete(name);
    return [`DROP TABLE IF EXISTS ${name} ${on} SYNC`, `DROP TABLE IF EXISTS ${name}${LOCAL_SUFFIX} ${on} SYNC`];
  }
  if ((m = TRUNCATE.exec(statement))) {
    // The data is in the local parts; a Distributed table only holds its pending sends.
    const table = schema.sharded.has(m[1]) ? `${m[1]}${LOCAL_SUFFIX}` : m[1];
    return [`TRUNCATE TABLE IF EXISTS ${table} ${on} SYNC`];
  }
  // A backfill reads and writes through the Distributed tables: the whole cluster, re-sharded by
  // the target's key. Synchronous only with distributed_foreground_insert=1 (deploy profile).
  if (INSERT.test(statement)) return [statement];
  throw new ClusterDdlError(
    'not a statement cluster mode can translate (CREATE TABLE/MATERIALIZED VIEW TO/VIEW, ALTER TABLE, DROP, TRUNCATE, INSERT)',
    statement,
  );
}

function createTable(statement: string, table: string, open: number, schema: ClusterSchema, on: string): string[] {
  if (table.endsWith(LOCAL_SUFFIX))
    throw new ClusterDdlError(`table names ending in ${LOCAL_SUFFIX} are reserved for cluster mode`, statement);
  const close = closingBracket(statement, open);
  const columns = statement.slice(open, close + 1);
  const tail = statement.slice(close + 1);
  const engine = /^\s*ENGINE\s*=\s*([A-Za-z]+)/i.exec(tail);
  if (!engine || !/MergeTree$/.test(engine[1]) || engine[1].startsWith('Replicated')) {
    throw new ClusterDdlError('only (non-replicated) MergeTree-family tables can be made cluster tables', statement);
  }
  let args = '';
  let rest = tail.slice(engine[0].length);
  const paren = /^\s*\(/.exec(rest);
  if (paren) {
    const end = closingBracket(rest, paren[0].length - 1);
    args = rest.slice(paren[0].length, end).trim();
    rest = rest.slice(end + 1);
  }
  const local = `${table}${LOCAL_SUFFIX}`;
  const replicated = [`'/clickhouse/tables/{shard}/{database}/${local}'`, `'{replica}'`, ...(args ? [args] : [])].join(
    ', ',
  );
  schema.sharded.add(table);
  return [
    `CREATE TABLE IF NOT EXISTS ${local} ${on} ${columns} ENGINE = Replicated${engine[1]}(${replicated})${rest}`,
    `CREATE TABLE IF NOT EXISTS ${table} ${on} AS ${local} ENGINE = Distributed('${schema.cluster}', currentDatabase(), '${local}', cityHash64(${shardKey(rest, statement)}))`,
  ];
}

/** The first expression of ORDER BY: rows equal on the sorting key must share a shard. */
function shardKey(rest: string, statement: string): string {
  const key = firstOrderByExpression(rest, statement);
  if (!key || /^tuple\s*\(\s*\)$/i.test(key))
    throw new ClusterDdlError('ORDER BY has no column to shard by', statement);
  return key;
}

function firstOrderByExpression(rest: string, statement: string): string | undefined {
  const order = /\bORDER\s+BY\s+/i.exec(rest);
  if (!order)
    throw new ClusterDdlError('a cluster table needs ORDER BY (its first column is the shard key)', statement);
  const after = rest.slice(order.index + order[0].length);
  if (after.startsWith('(')) {
    return splitTopLevel(after.slice(1, closingBracket(after, 0)))[0];
  }
  return splitTopLevel(after.split(/\s+(?:PRIMARY|SAMPLE|TTL|SETTINGS|COMMENT)\b/i)[0])[0];
}

/** FROM/JOIN of a sharded table read its local part: a view sees the rows inserted on its node. */
function localSources(select: string, schema: ClusterSchema): string {
  return select.replace(
    /\b(FROM|JOIN)(\s+)([A-Za-z_][A-Za-z0-9_]*)\b/gi,
    (whole, keyword: string, space: string, name: string) =>
      schema.sharded.has(name) ? `${keyword}${space}${name}${LOCAL_SUFFIX}` : whole,
  );
}
