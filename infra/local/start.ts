/**
 * `npm start`: runs the platform on this machine (see ./stack.ts) until Ctrl-C.
 *
 *   npm start                          # everything in memory
 *   npm start -- --data-dir .local/db  # keep DynamoDB's data across restarts (or MOR_DATA_DIR=.local/db)
 *   PORT=3001 DYNAMODB_PORT=8101 SQS_PORT=9325 npm start
 *
 * Prints one line, `Platform ready at http://localhost:<port>/api`, once it serves requests. SIGINT (Ctrl-C),
 * SIGTERM and SIGHUP stop everything it started (DynamoDB Local included) and exit with status 0; should
 * this process die without stopping (SIGKILL), a watchdog still takes DynamoDB Local down.
 */
import { parseArgs } from 'node:util';
import { startLocalStack, type LocalStack } from './stack.ts';

const usage = 'Usage: npm start [-- --data-dir <dir>]\nEnv: PORT, DYNAMODB_PORT, SQS_PORT, MOR_DATA_DIR, STAGE, WEBHOOK_ALLOW_LOOPBACK, POWERTOOLS_LOG_LEVEL\n';

function options(): { dataDir?: string } {
  let values: { 'data-dir'?: string; help?: boolean };
  try {
    ({ values } = parseArgs({ options: { 'data-dir': { type: 'string' }, help: { type: 'boolean', short: 'h' } }, allowPositionals: false }));
  } catch (e) {
    process.stderr.write(`${e instanceof Error ? e.message : e}\n${usage}`);
    process.exit(2);
  }
  if (values.help) {
    process.stdout.write(usage);
    process.exit(0);
  }
  const dataDir = values['data-dir'] ?? (process.env.MOR_DATA_DIR || undefined);
  return { dataDir };
}

async function main(): Promise<void> {
  const { dataDir } = options();
  let stack: LocalStack | undefined;
  let exiting = 0; // when the first stop signal came
  const shutdown = (signal: NodeJS.Signals) => {
    const done = (code: number) => process.exit(code);
    // A second Ctrl-C while stopping, or a stop that hangs, still ends the process (the exit hook kills Java).
    // A repeat within a second is the same Ctrl-C relayed by tsx, not a second one.
    if (exiting) {
      if (Date.now() - exiting > 1_000) done(1);
      return;
    }
    exiting = Date.now();
    setTimeout(() => done(1), 10_000).unref();
    if (!stack) return; // still starting: handled once startLocalStack settles
    stack.stop().then(() => done(0), (e: unknown) => {
      console.error(`Stopping after ${signal} failed:`, e);
      done(1);
    });
  };
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) process.on(signal, shutdown);

  try {
    stack = await startLocalStack({ dataDir, handleSignals: false });
  } catch (e) {
    console.error(e instanceof Error ? e.message : e);
    process.exit(1);
  }
  if (exiting) {
    await stack.stop();
    process.exit(0);
  }
  console.log(`Platform ready at ${stack.baseUrl}`);
}

await main();
