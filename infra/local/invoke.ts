/**
 * `npm run invoke -- <function-name> [event-file]`: runs one function once, like `sam local invoke`.
 *
 *   npm run invoke -- health                          # event from events/health.json
 *   npm run invoke -- merchants-get my-event.json
 *
 * The function is looked up by name in the route table and the consumer list; the event file defaults to
 * `events/<name>.json` (`npm run events` writes them). The function runs in this process with the local
 * environment, so it reads and writes the tables and queues of the running `npm start` stack, found through
 * the record `npm start` keeps in `.local/stacks/` (with that stack's STAGE and WEBHOOK_ALLOW_LOOPBACK).
 * PORT / DYNAMODB_PORT / SQS_PORT, when set, win over the record (the record of the stack on those ports still gives
 * its S3, SES and Secrets Manager ports, unless S3_PORT, SES_PORT or SECRETS_PORT is set); STAGE,
 * WEBHOOK_ALLOW_LOOPBACK and POWERTOOLS_LOG_LEVEL set here win as well. The deployment keys are read from the stack's
 * own Secrets Manager, as its functions read them.
 *
 * The samples carry a placeholder key and sample ids: with `MOR_API_KEY` set, its key replaces the placeholder, and
 * with `MOR_MERCHANT_ID` set, that id replaces the sample `{merchantId}`. A 401 to the placeholder says how to mint one.
 *
 * Prints the function's result as JSON on stdout (logs go to stderr/stdout as the function writes them) and
 * exits 1 when the function throws.
 */
import { readFileSync } from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { everyConsumer } from '../consumers.ts';
import { writeBrowserScriptsFor } from '../browser-scripts.ts';
import { writeOpenApiAssetsFor } from '../openapi-asset.ts';
import { writeDocsIndexFor } from '../docs-index-asset.ts';
import { writeDocsSiteFor } from '../docs-site-asset.ts';
import { routeList } from '../../shared/routes/index.ts';
import { placeholderApiKey, sampleParam } from './generate-events.ts';
import { routeTimeouts } from './gateway.ts';
import { consumerTimeoutMs, invokeHandler, lambdaContext, loadHandler } from './lambda.ts';
import { applyEnv, localEnv, repoRoot, toolSettings } from './settings.ts';

/** How to mint a merchant and its API key on the running local stack (the owner's password: 12 characters or more). */
const MINT_COMMAND = "npm run -s admin -- create-merchant --name Test --owner-email you@example.com --owner-password 'a local password' --json";

function usageText(): string {
  const names = [...routeList, ...everyConsumer].map((f) => f.name).join(', ');
  return `Usage: npm run -s invoke -- <function-name> [event-file]

Runs one function once, in this process, against the running local stack (like \`sam local invoke\`), and
prints its result as JSON. The event defaults to events/<function-name>.json.

The samples carry a placeholder API key. Set MOR_API_KEY to a key of the local stack (mint one with
\`${MINT_COMMAND}\`) and MOR_MERCHANT_ID to
its merchant, and they replace the placeholder key and the sample merchant id.

Functions: ${names}
`;
}

/** A usage problem: the message and the usage on stderr, exit status 2. */
function usage(message?: string): never {
  if (message) console.error(message);
  console.error(usageText());
  process.exit(2);
}

function reachable(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect({ host: '127.0.0.1', port });
    socket.setTimeout(500);
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('timeout', () => {
      socket.destroy();
      resolve(false);
    });
    socket.once('error', () => resolve(false));
  });
}

const mintHint = `Mint a key with \`${MINT_COMMAND}\`, then run again with MOR_API_KEY=<apiKey> MOR_MERCHANT_ID=<merchantId>.`;

/** The event text with `MOR_API_KEY` for the placeholder key and `MOR_MERCHANT_ID` for the sample merchant id, when set. */
function withOwnCredentials(text: string): string {
  const key = process.env.MOR_API_KEY;
  const merchantId = process.env.MOR_MERCHANT_ID;
  let own = key ? text.replaceAll(placeholderApiKey, key) : text;
  if (merchantId) own = own.replaceAll(sampleParam('merchantId'), merchantId);
  return own;
}

const exit = (code: number) => process.stdout.write('', () => process.exit(code));

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  if (args.includes('--help') || args.includes('-h')) {
    process.stdout.write(usageText());
    exit(0);
    return;
  }
  const [name, eventArg, ...rest] = args;
  if (!name || rest.length) usage();
  const route = routeList.find((r) => r.name === name);
  const consumer = everyConsumer.find((c) => c.name === name);
  const fn = route ?? consumer;
  if (!fn) usage(`No function named "${name}"`);

  const eventFile = path.resolve(eventArg ?? path.join(repoRoot, 'events', `${name}.json`));
  let event: unknown;
  try {
    event = JSON.parse(withOwnCredentials(readFileSync(eventFile, 'utf8')));
  } catch (e) {
    usage(`Cannot read the event ${eventFile}: ${e instanceof Error ? e.message : e}${eventArg ? '' : ' (run `npm run events`)'}`);
  }

  let local: ReturnType<typeof toolSettings>;
  try {
    local = toolSettings();
    applyEnv(localEnv(local.settings, local.userEnv));
  } catch (e) {
    // A setting that is wrong (PORT=abc, an unknown STAGE): its message, as the other tools say it.
    console.error(e instanceof Error ? e.message : String(e));
    exit(2);
    return;
  }
  const { settings, source } = local;
  if (settings.port === 0 || settings.dynamoPort === 0 || settings.sqsPort === 0) usage('invoke needs the actual ports of the running stack, not 0');
  if (!(await reachable(settings.dynamoPort))) {
    console.error(`warning: nothing answers on DynamoDB port ${settings.dynamoPort} (from ${source}); start the stack with \`npm start\``);
  }

  const timeoutMs = route ? routeTimeouts(route).functionMs : (consumer?.timeoutSeconds ?? consumerTimeoutMs / 1000) * 1000;
  try {
    // The OpenAPI documents and the browser scripts, built as the CDK app and the local stack build them.
    if (route) {
      writeOpenApiAssetsFor([route]);
      writeDocsIndexFor([route]);
      writeDocsSiteFor([route]);
      writeBrowserScriptsFor([route]);
    }
    const handler = await loadHandler(fn.handler);
    const result = await invokeHandler(handler, event, lambdaContext({ name: fn.name, timeoutMs, region: settings.region }), timeoutMs);
    process.stdout.write(`${JSON.stringify(result ?? null, null, 2)}\n`);
    if ((result as { statusCode?: number } | undefined)?.statusCode === 401 && JSON.stringify(event).includes(placeholderApiKey)) {
      console.error(`The event carries the samples' placeholder API key, which no merchant has. ${mintHint}`);
    }
    exit(0);
  } catch (e) {
    console.error(`${name} failed:`, e);
    exit(1);
  }
}

await main();
