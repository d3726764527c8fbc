/**
 * Operator CLI: `npm run admin -- <command> [flags]`.
 *
 *   create-merchant --name <name> --owner-email <email> --owner-password <pw> [--mode test|live]
 *                   [--stage sandbox|live] [--json]
 *   emit-event <type> --merchant <merchantId> [--payload '<json>'] [--json]
 *                   writes a catalog event to the outbox (sample values for the fields not given)
 *   emails [--json] the e-mails the local stack has sent (to, subject, text, sentAt)
 *
 * Without --stage it works on the running local stack (`npm start`); with --stage it works on that deployed
 * stage's table, with the AWS credentials and region of the environment.
 */
import { parseArgs } from 'node:util';
import * as v from 'valibot';
import { email } from '../../shared/schemas/common.ts';
import { modeOfStage, type Mode, type Stage } from '../../shared/config.ts';
import { applyEnv, localEnv, settingsFromEnv } from '../local/settings.ts';
import { tableNameFor } from '../config.ts';

const usage = `Usage: npm run admin -- create-merchant --name <name> --owner-email <email> --owner-password <password>
                        [--mode test|live] [--stage sandbox|live] [--json]
       npm run admin -- emit-event <type> --merchant <merchantId> [--payload '<json>'] [--json]
       npm run admin -- emails [--json]`;

const createMerchantArgs = v.object({
  name: v.pipe(v.string(), v.trim(), v.minLength(1, 'must not be empty'), v.maxLength(200)),
  'owner-email': email,
  'owner-password': v.pipe(v.string(), v.minLength(12, 'must be at least 12 characters'), v.maxLength(128)),
  mode: v.optional(v.picklist(['test', 'live'], 'must be test or live')),
  stage: v.optional(v.picklist(['sandbox', 'live'], 'must be sandbox or live')),
  json: v.optional(v.boolean()),
});

/** Point this process at the chosen deployment before any module that talks to DynamoDB is loaded. */
function target(stage: Stage | undefined): void {
  if (stage) {
    Object.assign(process.env, { STAGE: stage, TABLE_NAME: tableNameFor(stage) });
  } else {
    applyEnv(localEnv(settingsFromEnv()));
  }
}

async function createMerchant(argv: string[]): Promise<void> {
  const { values } = parseArgs({
    args: argv,
    options: {
      name: { type: 'string' }, 'owner-email': { type: 'string' }, 'owner-password': { type: 'string' },
      mode: { type: 'string' }, stage: { type: 'string' }, json: { type: 'boolean' },
    },
  });
  const parsed = v.safeParse(createMerchantArgs, values);
  if (!parsed.success) {
    const issue = parsed.issues[0];
    throw new Error(`--${v.getDotPath(issue)} ${issue.received === 'undefined' ? 'is required' : issue.message}\n${usage}`);
  }
  const args = parsed.output;
  target(args.stage);
  const stage = (process.env.STAGE ?? 'sandbox') as Stage;
  const mode: Mode = args.mode ?? modeOfStage(stage);
  const { createRootMerchant } = await import('../../shared/services/merchants.ts');
  const result = await createRootMerchant({ name: args.name, ownerEmail: args['owner-email'], ownerPassword: args['owner-password'], mode });
  if (args.json) {
    console.log(JSON.stringify(result));
  } else {
    console.log(`Created merchant ${result.merchantId} (owner ${result.ownerUserId}).`);
    console.log(`API key (shown once, store it now): ${result.apiKey}`);
  }
}

/** Local stack only: a valid outbox event of any catalog type, until the features that produce it exist. */
async function emitEvent(argv: string[]): Promise<void> {
  const { values, positionals } = parseArgs({
    args: argv, allowPositionals: true,
    options: { merchant: { type: 'string' }, payload: { type: 'string' }, json: { type: 'boolean' } },
  });
  const { eventPayloadSchemas, eventTypes, samplePayload } = await import('../../shared/events/catalog.ts');
  const type = positionals[0] as keyof typeof eventPayloadSchemas | undefined;
  if (!type || !eventTypes.includes(type)) throw new Error(`emit-event needs an event type: ${eventTypes.join(', ')}\n${usage}`);
  if (!values.merchant) throw new Error(`--merchant is required\n${usage}`);
  let given: Record<string, unknown> = {};
  try {
    given = values.payload ? JSON.parse(values.payload) : {};
  } catch {
    throw new Error('--payload is not valid JSON');
  }
  target(undefined);
  const now = new Date().toISOString();
  const parsed = v.safeParse(eventPayloadSchemas[type], { ...samplePayload(type, values.merchant, now), ...given });
  if (!parsed.success) throw new Error(`--payload: ${v.getDotPath(parsed.issues[0]) ?? ''} ${parsed.issues[0].message}`);
  const { getMerchant } = await import('../../shared/db/merchants.ts');
  const merchant = await getMerchant(values.merchant);
  if (!merchant) throw new Error(`No merchant ${values.merchant} on this stack`);
  const { emitEvent: write } = await import('../../shared/events/outbox.ts');
  const event = await write(type, merchant, parsed.output as never, now);
  console.log(values.json ? JSON.stringify(event) : `Wrote ${event.type} ${event.id} for merchant ${event.merchantId}`);
}

async function emails(argv: string[]): Promise<void> {
  const { values } = parseArgs({ args: argv, options: { json: { type: 'boolean' } } });
  target(undefined);
  const { listKeptMails } = await import('../../shared/mail/mailer.ts');
  const mails = (await listKeptMails()).map(({ to, subject, text, sentAt }) => ({ to, subject, text, sentAt }));
  if (values.json) console.log(JSON.stringify(mails));
  else for (const m of mails) console.log(`${m.sentAt}  ${m.to}  ${m.subject}`);
}

const commands: Record<string, (argv: string[]) => Promise<void>> = {
  'create-merchant': createMerchant,
  'emit-event': emitEvent,
  emails,
};

const [command, ...rest] = process.argv.slice(2);
const run = command ? commands[command] : undefined;
if (!run) {
  console.error(usage);
  process.exit(2);
}
try {
  await run(rest);
} catch (e) {
  console.error(e instanceof Error ? e.message : e);
  process.exit(1);
}
