import { buildApp } from './app';
import { ConfigError, loadConfig, type Config } from './config';
import { createDb } from './db/create-db';
import { migrateToLatest } from './db/migrate';
import { setPasswordHashCost } from './services/identity/passwords';
import { finishAbandonedReplies } from './services/chat/reply-leases';
import { seedDemoData, type SeedResult } from './seed';

const SHUTDOWN_GRACE_MS = 10_000;

function readConfig(): Config {
  try {
    return loadConfig();
  } catch (err) {
    if (err instanceof ConfigError) {
      console.error(err.message);
      process.exit(1);
    }
    throw err;
  }
}

function printBanner(config: Config, address: string, seed: SeedResult): void {
  const lines = [`Tanya is listening on ${address} (public URL ${config.publicUrl})`];
  if (seed.seeded) {
    lines.push('Demo data created. Accounts:');
    for (const a of seed.accounts) lines.push(`  ${a.email.padEnd(22)} ${a.role.padEnd(10)} ${a.name}`);
    lines.push(
      config.demoPassword
        ? `  password: ${seed.password}  (from DEMO_PASSWORD)`
        : `  password: ${seed.password}  (random, shown only now; set DEMO_PASSWORD to choose one)`,
    );
  }
  console.log(lines.join('\n'));
}

async function main(): Promise<void> {
  const config = readConfig();
  setPasswordHashCost(config.passwordHashCost);
  const db = createDb(config);
  await migrateToLatest(db);
  const seed = await seedDemoData(db, { password: config.demoPassword, publicUrl: config.publicUrl });
  // JSON lines for log collectors; on a terminal (someone running it by hand) the same lines made readable.
  const logger = process.stdout.isTTY ? { transport: { target: 'pino-pretty', options: { translateTime: 'SYS:HH:MM:ss', ignore: 'pid,hostname' } } } : undefined;
  const app = await buildApp({ config, db, maintenance: true, logger });
  // Before listening: replies a crashed predecessor left half-written are ended (kept, marked as interrupted)
  // and their conversations freed, so the first send after a restart is accepted.
  const recovered = await finishAbandonedReplies(db);
  if (recovered > 0) app.log.warn({ replies: recovered }, 'ended replies interrupted by the last shutdown');
  // Other instances sharing the database may die too: their replies are ended once their leases run out, by the
  // app's upkeep (server/upkeep.ts), which also sweeps old rate-limit rows and files never sent.

  let closing = false;
  const shutdown = async (signal: string) => {
    if (closing) return;
    closing = true;
    app.log.info({ signal }, 'shutting down');
    setTimeout(() => process.exit(1), SHUTDOWN_GRACE_MS).unref();
    await app.close();
    await db.destroy();
    process.exit(0);
  };
  process.once('SIGINT', () => void shutdown('SIGINT'));
  process.once('SIGTERM', () => void shutdown('SIGTERM'));

  await app.listen({ port: config.port, host: config.host });
  const address = `http://${config.host === '0.0.0.0' || config.host === '::' ? 'localhost' : config.host}:${config.port}`;
  printBanner(config, address, seed);
}

main().catch((err: unknown) => {
  console.error('Tanya failed to start:', err);
  process.exit(1);
});
