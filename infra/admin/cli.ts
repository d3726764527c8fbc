/**
 * Operator CLI: `npm run -s admin -- <command> [flags]` (`-s` keeps npm's own lines out of the output, so
 * `--json` output can be piped). `npm run -s admin -- --help` and `… <command> --help` print the usage.
 *
 *   create-merchant --name <name> --owner-email <email> [--owner-password <pw>] [--mode test|live]
 *                   [--stage sandbox|live] [--json]
 *                   a root (partner) merchant, its owner and a merchant API key; the password may come from
 *                   MOR_OWNER_PASSWORD instead of the command line
 *   create-account  --name <name> [--organization <merchantId>] [--stage sandbox|live] [--json]
 *                   an organization API account and its one-time activation secret
 *   emit-event <type> --merchant <merchantId> [--payload '<json>'] [--json]
 *                   writes a catalog event to the outbox (sample values for the fields not given)
 *   emails [--json] the e-mails the local stack has sent (to, subject, text, sentAt)
 *
 * Without --stage it works on the running local stack: the one `npm start` recorded in `.local/stacks/`, or
 * the one PORT / DYNAMODB_PORT / SQS_PORT name (those win). With --stage it works on that deployed stage's
 * table, with the AWS credentials and region of the environment.
 */
import { parseArgs, type ParseArgsConfig } from 'node:util';
import * as v from 'valibot';
import { email, uuid } from '../../shared/schemas/common.ts';
import { modeOfStage, type Mode, type Stage } from '../../shared/config.ts';
import { applyEnv, localEnv, toolSettings } from '../local/settings.ts';
import { tableNameFor } from '../config.ts';

const PASSWORD_VARIABLE = 'MOR_OWNER_PASSWORD';

const usages = {
  'create-merchant': `npm run -s admin -- create-merchant --name <name> --owner-email <email> [--owner-password <password>]
                        [--mode test|live] [--stage sandbox|live] [--json]
    A root (partner) merchant with its owner and a merchant API key (printed once).
    The owner's password comes from --owner-password or, kept off the command line, from ${PASSWORD_VARIABLE}.`,
  'create-account': `npm run -s admin -- create-account --name <name> [--organization <merchantId>] [--stage sandbox|live] [--json]
    An organization API account and its one-time activation secret (printed once; only a hash is kept).
    With --organization the account is linked, as an owner, to that existing merchant.
    --json prints {"accountId","secret","organizationId"}.`,
  'emit-event': `npm run -s admin -- emit-event <type> --merchant <merchantId> [--payload '<json>'] [--json]
    Writes a catalog event to the local stack's outbox (sample values for the fields not given).`,
  emails: `npm run -s admin -- emails [--json]
    The e-mails the local stack has sent: to, subject, text, sentAt.`,
} as const;

type Command = keyof typeof usages;

const usage = `Usage: npm run -s admin -- <command> [flags]     (--help after a command: its usage)

${Object.values(usages).join('\n\n')}

Without --stage every command works on the running local stack: the one \`npm start\` recorded, or the one
PORT / DYNAMODB_PORT / SQS_PORT name. With --stage sandbox|live it works on that deployed stage's table,
with the AWS credentials and region of your environment.`;

/** A usage error: the message and the command's usage on stderr, exit status 1. */
class UsageError extends Error {}

const stage = v.optional(v.picklist(['sandbox', 'live'], 'must be sandbox or live'));

const createMerchantArgs = v.object({
  name: v.pipe(v.string(), v.trim(), v.minLength(1, 'must not be empty'), v.maxLength(200)),
  'owner-email': email,
  'owner-password': v.pipe(v.string(), v.minLength(12, 'must be at least 12 characters'), v.maxLength(128)),
  mode: v.optional(v.picklist(['test', 'live'], 'must be test or live')),
  stage,
  json: v.optional(v.boolean()),
});

const createAccountArgs = v.object({
  name: v.pipe(v.string(), v.trim(), v.minLength(1, 'must not be empty'), v.maxLength(200)),
  organization: v.optional(v.pipe(uuid, v.toLowerCase())),
  stage,
  json: v.optional(v.boolean()),
});

/** Parses `argv` for `command`; `--help` prints the command's usage and exits 0. */
function parse<T extends NonNullable<ParseArgsConfig['options']>>(command: Command, argv: string[], options: T, positionals = false) {
  let parsed;
  try {
    parsed = parseArgs({ args: argv, options: { ...options, help: { type: 'boolean', short: 'h' } }, allowPositionals: positionals });
  } catch (e) {
    throw new UsageError(`${e instanceof Error ? e.message : e}\nUsage: ${usages[command]}`);
  }
  if ((parsed.values as { help?: boolean }).help) {
    process.stdout.write(`Usage: ${usages[command]}\n`);
    process.exit(0);
  }
  return parsed;
}

/** The flags, checked by `schema`; the first problem is a usage error naming the flag. */
function checked<S extends v.GenericSchema>(command: Command, schema: S, values: unknown): v.InferOutput<S> {
  const result = v.safeParse(schema, values);
  if (result.success) return result.output;
  const issue = result.issues[0];
  const flag = v.getDotPath(issue);
  const named = flag === 'owner-password' ? `--${flag} (or ${PASSWORD_VARIABLE})` : `--${flag}`;
  throw new UsageError(`${named} ${issue.received === 'undefined' ? 'is required' : issue.message}\nUsage: ${usages[command]}`);
}

/**
 * Point this process at the chosen deployment before any module that talks to DynamoDB is loaded: a deployed
 * stage's table, or the running local stack.
 */
function target(deployed: Stage | undefined): void {
  if (deployed) {
    Object.assign(process.env, { STAGE: deployed, TABLE_NAME: tableNameFor(deployed) });
  } else {
    const { settings, userEnv } = toolSettings();
    applyEnv(localEnv(settings, userEnv));
  }
}

const currentStage = (): Stage => (process.env.STAGE === 'live' ? 'live' : 'sandbox');

async function createMerchant(argv: string[]): Promise<void> {
  const { values } = parse('create-merchant', argv, {
    name: { type: 'string' }, 'owner-email': { type: 'string' }, 'owner-password': { type: 'string' },
    mode: { type: 'string' }, stage: { type: 'string' }, json: { type: 'boolean' },
  });
  const fromEnvironment = process.env[PASSWORD_VARIABLE];
  const args = checked('create-merchant', createMerchantArgs, {
    ...values,
    'owner-password': values['owner-password'] ?? (fromEnvironment === '' ? undefined : fromEnvironment),
  });
  target(args.stage);
  const mode: Mode = args.mode ?? modeOfStage(currentStage());
  const { createRootMerchant } = await import('../../shared/services/merchants.ts');
  const result = await createRootMerchant({ name: args.name, ownerEmail: args['owner-email'], ownerPassword: args['owner-password'], mode });
  if (args.json) {
    console.log(JSON.stringify(result));
  } else {
    console.log(`Created merchant ${result.merchantId} (owner ${result.ownerUserId}).`);
    console.log(`API key (shown once, store it now): ${result.apiKey}`);
  }
}

async function createAccount(argv: string[]): Promise<void> {
  const { values } = parse('create-account', argv, {
    name: { type: 'string' }, organization: { type: 'string' }, stage: { type: 'string' }, json: { type: 'boolean' },
  });
  const args = checked('create-account', createAccountArgs, values);
  target(args.stage);
  const { createAccount: create } = await import('../../shared/services/accounts.ts');
  const result = await create({ name: args.name, mode: modeOfStage(currentStage()), organizationId: args.organization });
  if (args.json) {
    console.log(JSON.stringify({ accountId: result.accountId, secret: result.secret, organizationId: result.organizationId }));
  } else {
    console.log(`Created account ${result.accountId}${result.organizationId ? `, an owner of organization ${result.organizationId}` : ''}.`);
    console.log(`Activation secret (shown once, store it now): ${result.secret}`);
    console.log(`Next: POST /api/v1/public-api/accounts/${result.accountId}/activate {"secret": "…"}, then POST …/api-keys {"secret": "…"}.`);
  }
}

/** Local stack only: a valid outbox event of any catalog type, until the features that produce it exist. */
async function emitEvent(argv: string[]): Promise<void> {
  const { values, positionals } = parse('emit-event', argv, { merchant: { type: 'string' }, payload: { type: 'string' }, json: { type: 'boolean' } }, true);
  const { eventPayloadSchemas, eventTypes, samplePayload } = await import('../../shared/events/catalog.ts');
  const type = positionals[0] as keyof typeof eventPayloadSchemas | undefined;
  if (!type || !eventTypes.includes(type) || positionals.length > 1) {
    throw new UsageError(`emit-event needs one event type: ${eventTypes.join(', ')}\nUsage: ${usages['emit-event']}`);
  }
  if (!values.merchant) throw new UsageError(`--merchant is required\nUsage: ${usages['emit-event']}`);
  let given: Record<string, unknown> = {};
  try {
    given = values.payload ? JSON.parse(values.payload) : {};
  } catch {
    throw new UsageError('--payload is not valid JSON');
  }
  target(undefined);
  const now = new Date().toISOString();
  const parsed = v.safeParse(eventPayloadSchemas[type], { ...samplePayload(type, values.merchant, now), ...given });
  if (!parsed.success) throw new UsageError(`--payload: ${v.getDotPath(parsed.issues[0]) ?? ''} ${parsed.issues[0].message}`);
  const { getMerchant } = await import('../../shared/db/merchants.ts');
  const merchant = await getMerchant(values.merchant);
  if (!merchant) throw new Error(`No merchant ${values.merchant} on this stack`);
  const { emitEvent: write } = await import('../../shared/events/outbox.ts');
  const event = await write(type, merchant, parsed.output as never, now);
  console.log(values.json ? JSON.stringify(event) : `Wrote ${event.type} ${event.id} for merchant ${event.merchantId}`);
}

async function emails(argv: string[]): Promise<void> {
  const { values } = parse('emails', argv, { json: { type: 'boolean' } });
  target(undefined);
  const { listKeptMails } = await import('../../shared/mail/mailer.ts');
  const mails = (await listKeptMails()).map(({ to, subject, text, sentAt }) => ({ to, subject, text, sentAt }));
  if (values.json) console.log(JSON.stringify(mails));
  else for (const m of mails) console.log(`${m.sentAt}  ${m.to}  ${m.subject}`);
}

const commands: Record<Command, (argv: string[]) => Promise<void>> = {
  'create-merchant': createMerchant,
  'create-account': createAccount,
  'emit-event': emitEvent,
  emails,
};

const [command, ...rest] = process.argv.slice(2);
if (command === '--help' || command === '-h' || command === 'help') {
  process.stdout.write(`${usage}\n`);
  process.exit(0);
}
const run = command && Object.hasOwn(commands, command) ? commands[command as Command] : undefined;
if (!run) {
  console.error(`${command ? `Unknown command "${command}".\n` : ''}${usage}`);
  process.exit(2);
}
try {
  await run(rest);
} catch (e) {
  console.error(e instanceof Error ? e.message : e);
  process.exit(1);
}
