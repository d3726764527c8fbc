/**
 * `npm start`: runs the platform on this machine (see ./stack.ts) until Ctrl-C.
 *
 *   npm start                          # everything in memory
 *   npm start -- --data-dir .local/db  # keep DynamoDB's data across restarts (or MOR_DATA_DIR=.local/db)
 *   PORT=3001 DYNAMODB_PORT=8101 SQS_PORT=9325 npm start
 *   STAGE=live npm start               # as the live deployment, with the tokenization host on TOKENIZATION_PORT
 *
 * Prints one line, `Platform ready at http://localhost:<port>/api` (on live followed by
 * `; tokenization host at http://localhost:<port>`), once it serves requests, then one access line per request
 * (`GET /api/health 200 3 ms`); the functions log at WARN unless POWERTOOLS_LOG_LEVEL says otherwise, and the
 * metrics they would publish when deployed are dropped without a word. It records its
 * endpoints in `.local/stacks/<pid>.json` so `npm run admin` and `npm run invoke` find it on whatever ports it
 * got (the record is removed when it stops). SIGINT (Ctrl-C), SIGTERM and SIGHUP stop everything it started
 * (DynamoDB Local included) and exit with status 0; should this process die without stopping (SIGKILL), a
 * watchdog still takes DynamoDB Local down, and the tools skip the record of a process that is gone.
 */
import { parseArgs } from 'node:util';
import { recordStack } from './settings.ts';
import { startLocalStack, type LocalStack } from './stack.ts';

const usage = `Usage: npm start [-- --data-dir <dir>]

Runs the whole platform on this machine until Ctrl-C: http://localhost:3000/api by default.

Options:
  --data-dir <dir>   keep DynamoDB's data, the policy PDFs (<dir>/s3) and the mails sent (<dir>/ses) in <dir> across restarts (or MOR_DATA_DIR);
                     in memory (and a temporary folder) otherwise
  -h, --help         print this and exit

Environment:
  PORT (3000), DYNAMODB_PORT (8100), SQS_PORT (9324)   ports; 0 picks a free one
  TOKENIZATION_PORT (3001)    live only: port of the tokenization host (POST /tokens); 0 picks a free one
  S3_PORT (0)                 port of the local S3 server holding seller policy PDFs; 0 (default) picks a free one
  SES_PORT (0)                port of the local SES, which keeps the mails sent (npm run admin -- emails); 0 (default) picks a free one
  SECRETS_PORT (0)            port of the local Secrets Manager holding the two keys below; 0 (default) picks a free one
  STAGE (sandbox)             the deployment the functions behave as: sandbox or live
  WEBHOOK_ALLOW_LOOPBACK=1    also accept http://127.0.0.1:<port> webhook receivers
  WEBHOOK_SIGNING_KEY         key the local webhook signing secrets are derived from (held by the local Secrets Manager)
  CARD_FINGERPRINT_KEY        key the local card fingerprints are derived from (held by the local Secrets Manager)
  LIVE_USES_SANDBOX_PROCESSOR=1  with STAGE=live: charge through the sandbox processor (local only)
  POWERTOOLS_LOG_LEVEL (WARN) the functions' log level (INFO, DEBUG for more)
  MOR_STACKS_DIR (.local/stacks)  where the running stack's endpoints are recorded for the local tools

The stack's endpoints are recorded in <MOR_STACKS_DIR>/<pid>.json while it runs, so \`npm run admin\` and
\`npm run invoke\` talk to it without settings.
`;

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
    stack.stop().then(
      () => done(0),
      (e: unknown) => {
        console.error(`Stopping after ${signal} failed:`, e);
        done(1);
      },
    );
  };
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) process.on(signal, shutdown);

  try {
    stack = await startLocalStack({ dataDir, handleSignals: false, schedules: true, accessLog: (line) => console.log(line) });
  } catch (e) {
    console.error(e instanceof Error ? e.message : e);
    process.exit(1);
  }
  if (exiting) {
    await stack.stop();
    process.exit(0);
  }
  const running = stack;
  const forget = recordStack({
    pid: process.pid,
    baseUrl: running.baseUrl,
    port: running.settings.port,
    dynamoPort: running.settings.dynamoPort,
    sqsPort: running.settings.sqsPort,
    s3Port: running.settings.s3Port,
    sesPort: running.settings.sesPort,
    secretsPort: running.settings.secretsPort,
    stage: running.env.STAGE === 'live' ? 'live' : 'sandbox',
    ...(running.tokenizationUrl ? { tokenizationUrl: running.tokenizationUrl, tokenizationPort: running.settings.tokenizationPort } : {}),
    ...(running.env.WEBHOOK_ALLOW_LOOPBACK !== undefined ? { webhookAllowLoopback: running.env.WEBHOOK_ALLOW_LOOPBACK } : {}),
    startedAt: new Date().toISOString(),
  });
  // However the process ends (a stop signal, or a failure), the record goes with it.
  process.on('exit', forget);
  console.log(`Platform ready at ${stack.baseUrl}${stack.tokenizationUrl ? `; tokenization host at ${stack.tokenizationUrl}` : ''}`);
}

await main();
