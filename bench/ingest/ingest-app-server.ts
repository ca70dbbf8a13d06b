import { writeFileSync } from 'node:fs';
import { CommandBus } from '@nestjs/cqrs';
import { createApp } from '../../src/app.factory';
import { CLICKHOUSE, ClickHouseExecutor } from '../../src/infrastructure/clickhouse/clickhouse.port';
import { loadConfig } from '../../src/platform/config/app-config';
import { CreateAccount } from '../../src/write/accounts/create-account.handler';
import { IssueApiKey } from '../../src/write/api-keys/api-key.handlers';
import { CreateTrunk } from '../../src/write/trunks/create-trunk.handler';
import type { CreateTrunkRequestDto } from '../../src/write/trunks/dto/create-trunk.request.dto';
import { failStartup, serveControl } from './child-control';
import type { IngestAppReady, IngestAppStats, StatementTally } from './ingest-messages';
import { STATS_FILE_ENV, TRUNKS_ENV } from './ingest-messages';

/*
 * The real app in its own process (forked by ingest.bench.ts): embedded chDB and PGlite in the
 * bench's temp DATA_DIR, read models in memory (no REDIS_URL). Provisions an account, an
 * ingest-only key and trunks through the command bus, reports them over IPC, and on stop leaves
 * its ClickHouse statement counts and times in the stats file.
 */
const PROVIDERS = ['openai', 'elevenlabs', 'custom'] as const;

async function main(): Promise<void> {
  const statsFile = process.env[STATS_FILE_ENV];
  if (!statsFile) throw new Error(`${STATS_FILE_ENV} is not set`);
  const running = await createApp(loadConfig(process.env));
  const stats: IngestAppStats = { inserts: tally(), lookups: tally() };
  instrument(running.app.get<symbol, ClickHouseExecutor>(CLICKHOUSE), stats);
  serveControl(async () => {
    writeFileSync(statsFile, JSON.stringify(stats));
    await running.close();
  });
  if (!running.tls) throw new Error('the bench needs TLS_MODE=native');
  const bus = running.app.get(CommandBus);
  const metadata = { actor: 'bench', correlation_id: 'bench-setup' };
  const account = await bus.execute(new CreateAccount('Ingest Bench', metadata));
  const key = await bus.execute(
    new IssueApiKey({ accountId: account.id, name: 'bench ingest key', scopes: ['ingest'], expiresAt: null }, metadata),
  );
  const trunks: IngestAppReady['trunks'] = [];
  for (let i = 0; i < Number(process.env[TRUNKS_ENV] ?? 10); i++) {
    const trunk = await bus.execute(new CreateTrunk(account.id, trunkRequest(i), metadata));
    trunks.push({ id: trunk.id, provider: trunk.ai_provider });
  }
  const ready: IngestAppReady = {
    type: 'ready',
    port: running.port,
    cert: running.tls.cert,
    ingestKey: key.key,
    accountId: account.id,
    trunks,
    pid: process.pid,
  };
  process.send?.(ready);
}

/** Provider wiring in the shapes PROVIDER_VALIDATION=format accepts. */
function trunkRequest(i: number): CreateTrunkRequestDto {
  const provider = PROVIDERS[i % PROVIDERS.length];
  const base = {
    name: `Bench trunk ${i + 1}`,
    ai_provider: provider,
    sip_username: `bench-trunk-${i + 1}`,
    sip_password: 'bench-password-0123456789',
  };
  if (provider === 'openai') return { ...base, openai_api_key: `sk-proj-${'a'.repeat(40)}` };
  if (provider === 'elevenlabs')
    return { ...base, elevenlabs_api_key: 'b'.repeat(32), elevenlabs_agent_id: `agent_${'c'.repeat(20)}` };
  return { ...base, custom_endpoint: `wss://agent.example.com/voice/bench-${i + 1}` };
}

/**
 * Times the writer's statements from outside: the writer holds this same executor object, so
 * wrapping its methods here sees its INSERTs into call_records (projections insert into other
 * tables) and its previous-version lookups.
 */
function instrument(executor: ClickHouseExecutor, stats: IngestAppStats): void {
  const insert = executor.insert.bind(executor);
  const query = executor.query.bind(executor);
  executor.insert = async (table, rows) => {
    const started = performance.now();
    await insert(table, rows);
    if (table === 'call_records') add(stats.inserts, rows.length, started);
  };
  executor.query = async <T>(sql: string, params?: Parameters<ClickHouseExecutor['query']>[1]): Promise<T[]> => {
    const started = performance.now();
    const rows = await query<T>(sql, params);
    // Only the writer reads call_records during the bench: each such query is part of its lookup.
    if (/\bFROM call_records\b/.test(sql)) add(stats.lookups, rows.length, started);
    return rows;
  };
}

const tally = (): StatementTally => ({ calls: 0, rows: 0, ms: 0 });

function add(into: StatementTally, rows: number, started: number): void {
  into.calls += 1;
  into.rows += rows;
  into.ms += performance.now() - started;
}

main().catch(failStartup);
