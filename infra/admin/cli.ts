/**
 * Operator CLI: `npm run -s admin -- <command> [flags]` (`-s` keeps npm's own lines out of the output, so
 * `--json` output can be piped). `npm run -s admin -- --help` and `… <command> --help` print the usage.
 *
 * The commands, their flags and what each does: `usages` in ./usage.ts (what `--help` prints); `listen` is in
 * ./listen.ts, the others here.
 *
 * Without --stage it works on the running local stack: the one `npm start` recorded in `.local/stacks/`, or
 * the one PORT / DYNAMODB_PORT / SQS_PORT name (those win), as the stage that stack runs as (the mark on its
 * table; a STAGE set here that names the other stage is refused). With --stage it works on that deployed stage's
 * table, with the AWS credentials and region of the environment.
 *
 * It runs on Node's own type stripping (`node infra/admin/cli.ts`, no loader): it and everything it imports keep to
 * erasable TypeScript, and it imports no CDK (stage names come from `infra/names.ts`), so it starts in a fraction
 * of a second.
 */
import * as v from 'valibot';
import { disputeAlertTypes, disputeCategories } from '../../shared/payments/disputes.schemas.ts';
import { WITHDRAWAL_ID_PATTERN } from '../../shared/money/payouts.schemas.ts';
import { email, uuid } from '../../shared/platform/http/schemas/common.ts';
import { modeOfStage, type Mode, type Stage } from '../../shared/domain/deployments.ts';
import type { DeclineCode } from '../../shared/processor/index.ts';
import { applyEnv, localEndpoint, localEnv, stageFrom, toolSettings, type LocalSettings } from '../local/settings.ts';
import { namePrefixFor, tableNameFor } from '../names.ts';
import { sellerOfRecordFor } from '../seller-of-record.ts';
import { sellerOfRecordEnvironment } from '../../shared/platform/seller-of-record.ts';
import { listen } from './listen.ts';
import { type Command, checked, parse, PASSWORD_VARIABLE, usage, UsageError, usages } from './usage.ts';

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

/**
 * The stage the local stack at `settings` marked its table with (undefined: no mark, from a stack started before
 * stacks marked their tables, or no table).
 */
async function localStackStage(settings: LocalSettings): Promise<Stage | undefined> {
  const { DynamoDBClient } = await import('@aws-sdk/client-dynamodb');
  const { stackStageMark } = await import('../local/dynamo.ts');
  const endpoint = localEndpoint(settings.dynamoPort);
  const client = new DynamoDBClient({ endpoint, region: settings.region, credentials: { accessKeyId: 'local', secretAccessKey: 'local' } });
  try {
    return await stackStageMark(client, settings.tableName);
  } catch (e) {
    throw new Error(`No local stack answers at ${endpoint} (DynamoDB Local): ${e instanceof Error ? e.message : e}`);
  } finally {
    client.destroy();
  }
}

/**
 * Point this process at the chosen deployment before any module that talks to DynamoDB is loaded: a deployed
 * stage's table, or the running local stack, as the stage the stack runs as (the mark on its table). A STAGE
 * set in the caller's environment that names the other stage is a usage error, never a silent choice.
 */
async function target(deployed: Stage | undefined): Promise<void> {
  if (deployed) {
    // The stage's seller of record, as its functions that issue invoices get it (a reconciled subscription charge
    // issues its period's invoice).
    Object.assign(process.env, { STAGE: deployed, TABLE_NAME: tableNameFor(deployed) }, sellerOfRecordEnvironment(sellerOfRecordFor(deployed)));
  } else {
    // The caller's own STAGE, before this process is pointed at the stack (which sets STAGE).
    const chosen = process.env.STAGE || undefined;
    const { settings, userEnv } = toolSettings();
    const marked = await localStackStage(settings);
    if (marked && chosen !== undefined && stageFrom({ STAGE: chosen }) !== marked) {
      throw new UsageError(
        `The local stack at http://localhost:${settings.port}/api runs ${marked}; STAGE=${chosen} names the other stage. ` +
          `Unset STAGE (the stack's own stage is used), or point PORT / DYNAMODB_PORT / SQS_PORT at a ${chosen} stack.`,
      );
    }
    applyEnv(localEnv(settings, marked ? { ...userEnv, STAGE: marked } : userEnv));
  }
  // A command prints its result on stdout: the platform's own logs show warnings and errors only (on stderr).
  process.env.POWERTOOLS_LOG_LEVEL = 'WARN';
}

const currentStage = (): Stage => (process.env.STAGE === 'live' ? 'live' : 'sandbox');

async function createMerchant(argv: string[]): Promise<void> {
  const { values } = parse('create-merchant', argv, {
    name: { type: 'string' },
    'owner-email': { type: 'string' },
    'owner-password': { type: 'string' },
    mode: { type: 'string' },
    stage: { type: 'string' },
    json: { type: 'boolean' },
  });
  const fromEnvironment = process.env[PASSWORD_VARIABLE];
  const args = checked('create-merchant', createMerchantArgs, {
    ...values,
    'owner-password': values['owner-password'] ?? (fromEnvironment === '' ? undefined : fromEnvironment),
  });
  await target(args.stage);
  const mode: Mode = args.mode ?? modeOfStage(currentStage());
  const { createRootMerchant } = await import('../../shared/people/index.ts');
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
    name: { type: 'string' },
    organization: { type: 'string' },
    stage: { type: 'string' },
    json: { type: 'boolean' },
  });
  const args = checked('create-account', createAccountArgs, values);
  await target(args.stage);
  const { createAccount: create } = await import('../../shared/organizations/index.ts');
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
  const { eventPayloadSchemas, eventTypes, samplePayload } = await import('../../shared/platform/events/catalog.ts');
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
  await target(undefined);
  const now = new Date().toISOString();
  const parsed = v.safeParse(eventPayloadSchemas[type], { ...samplePayload(type, values.merchant, now), ...given });
  if (!parsed.success) throw new UsageError(`--payload: ${v.getDotPath(parsed.issues[0]) ?? ''} ${parsed.issues[0].message}`);
  const { getMerchant } = await import('../../shared/people/index.ts');
  const merchant = await getMerchant(values.merchant);
  if (!merchant) throw new Error(`No merchant ${values.merchant} on this stack`);
  const { emitEvent: write } = await import('../../shared/platform/events/outbox.ts');
  const event = await write(type, merchant, parsed.output as never, now);
  console.log(values.json ? JSON.stringify(event) : `Wrote ${event.type} ${event.id} for merchant ${event.merchantId}`);
}

async function emails(argv: string[]): Promise<void> {
  const { values } = parse('emails', argv, { json: { type: 'boolean' } });
  await target(undefined);
  const endpoint = process.env.AWS_ENDPOINT_URL_SESV2;
  if (!endpoint) throw new UsageError('The local SES is not known: run `npm start` (this finds it), or set SES_PORT beside PORT, DYNAMODB_PORT and SQS_PORT.');
  const { localSesMails } = await import('../local/ses.ts');
  const mails = (await localSesMails(endpoint)).map(({ to, subject, text, sentAt }) => ({ to, subject, text, sentAt }));
  if (values.json) console.log(JSON.stringify(mails));
  // Each mail's heading line, then its text indented beneath it (the links it carries among it).
  else for (const m of mails) console.log(`${m.sentAt}  ${m.to}  ${m.subject}\n${m.text.replace(/^/gm, '    ')}\n`);
}

const deadLettersArgs = v.object({ redrive: v.optional(v.string()), stage, json: v.optional(v.boolean()) });

async function deadLetters(argv: string[]): Promise<void> {
  const { values } = parse('dead-letters', argv, { redrive: { type: 'string' }, stage: { type: 'string' }, json: { type: 'boolean' } });
  const args = checked('dead-letters', deadLettersArgs, values);
  await target(args.stage);
  const { queuesFor } = await import('../consumers.ts');
  const { streamFailureQueue } = await import('../local/settings.ts');
  // A stage's queues are named `<prefix>-<queue>`: the stage's name prefix deployed, the table's name locally.
  const prefix = args.stage ? namePrefixFor(args.stage) : process.env.TABLE_NAME!;
  const queues: string[] = queuesFor(currentStage());
  const { parkedMessages, redrive } = await import('./dead-letters.ts');
  if (args.redrive === undefined) {
    const parked = await parkedMessages(prefix, queues, streamFailureQueue);
    if (args.json) console.log(JSON.stringify(parked));
    else for (const p of parked) console.log(`${String(p.messages).padStart(6)}  ${p.parkedOn}`);
    return;
  }
  if (!queues.includes(args.redrive)) {
    throw new UsageError(`--redrive takes a queue of the ${currentStage()} stage: ${queues.join(', ')}\nUsage: ${usages['dead-letters']}`);
  }
  const moved = await redrive(prefix, args.redrive);
  if (args.json) console.log(JSON.stringify({ queue: args.redrive, moved }));
  else console.log(`Moved ${moved} message(s) from ${prefix}-${args.redrive}-dlq back to ${prefix}-${args.redrive}.`);
}

/** `--stage` of the sandbox processor's commands. */
const sandboxStage = v.optional(v.literal('sandbox', 'must be sandbox (live has no processor to simulate)'));
/** An amount flag in major units, as text (`12.50`). */
const majorAmountText = v.pipe(v.string(), v.regex(/^\d{1,15}(\.\d{1,3})?$/, 'must be an amount such as 12.50'), v.toNumber());

const simulateRefundArgs = v.object({
  transactionId: v.pipe(uuid, v.toLowerCase()),
  amount: v.optional(v.pipe(majorAmountText, v.gtValue(0, 'must be more than 0'))),
  reason: v.optional(v.pipe(v.string(), v.maxLength(255))),
  stage: sandboxStage,
  json: v.optional(v.boolean()),
});

/** The sandbox processor refunds a transaction on its own (source `processor`: writes `payment.refunded`). */
async function simulateRefund(argv: string[]): Promise<void> {
  const { values, positionals } = parse(
    'simulate-refund',
    argv,
    {
      amount: { type: 'string' },
      reason: { type: 'string' },
      stage: { type: 'string' },
      json: { type: 'boolean' },
    },
    true,
  );
  if (positionals.length !== 1) throw new UsageError(`simulate-refund needs one transaction id\nUsage: ${usages['simulate-refund']}`);
  const args = checked('simulate-refund', simulateRefundArgs, { ...values, transactionId: positionals[0] });
  await target(args.stage);
  const { processorRefund } = await import('../../shared/payments/index.ts');
  const { refund } = await processorRefund(args.transactionId, { amount: args.amount, reason: args.reason ?? null });
  if (args.json) console.log(JSON.stringify(refund));
  else
    console.log(
      `Refund ${refund.id} of ${refund.amount} ${refund.currency} on transaction ${refund.transactionId}: ${refund.status}${refund.failureReason ? ` (${refund.failureReason.code})` : ''}`,
    );
}

const declineCodes = ['generic_decline', 'insufficient_funds', 'expired_card'] as const satisfies readonly DeclineCode[];

const declineInstrumentArgs = v.object({
  organization: v.pipe(uuid, v.toLowerCase()),
  instrument: v.pipe(v.string(), v.regex(/^inst_[0-9a-f]{32}$/, 'must be a payment instrument id (inst_ and 32 hex digits)')),
  code: v.optional(v.picklist(declineCodes, `must be ${declineCodes.join(', ')}`)),
  restore: v.optional(v.boolean()),
  stage: v.optional(v.literal('sandbox', "must be sandbox (decline-instrument changes the sandbox processor's cards; live has none)")),
  json: v.optional(v.boolean()),
});

/** The sandbox processor declines every charge of a saved instrument's card from now on, or (--restore) no longer. */
async function declineInstrument(argv: string[]): Promise<void> {
  const { values } = parse('decline-instrument', argv, {
    organization: { type: 'string' },
    instrument: { type: 'string' },
    code: { type: 'string' },
    restore: { type: 'boolean' },
    stage: { type: 'string' },
    json: { type: 'boolean' },
  });
  const args = checked('decline-instrument', declineInstrumentArgs, values);
  if (args.restore && args.code) throw new UsageError(`--code and --restore do not go together\nUsage: ${usages['decline-instrument']}`);
  await target(args.stage);
  if (currentStage() !== 'sandbox') {
    throw new Error("decline-instrument works on the sandbox deployment only: it changes the sandbox processor's cards, and live has none.");
  }
  const { setSandboxInstrumentDecline } = await import('../../shared/payments/index.ts');
  const result = await setSandboxInstrumentDecline(args.organization, args.instrument, args.restore ? null : (args.code ?? 'generic_decline'));
  const card = `${result.brand} …${result.last4}`;
  console.log(
    args.json
      ? JSON.stringify(result)
      : args.restore
        ? `Payment instrument ${result.paymentInstrumentId} (${card}) restored to its card's own behaviour: ${result.behaviour}.`
        : `Payment instrument ${result.paymentInstrumentId} (${card}) declines every charge from now on: ${result.behaviour.slice('decline:'.length)}.`,
  );
}

const sandboxDisputeArgs = v.object({
  reference: v.pipe(v.string(), v.minLength(1, 'is required'), v.maxLength(200)),
  amount: v.optional(majorAmountText),
  reason: v.optional(v.pipe(v.string(), v.trim(), v.minLength(1, 'must not be empty'), v.maxLength(50))),
  category: v.optional(v.picklist(disputeCategories, 'must be a dispute category')),
  to: v.optional(v.picklist(['response-needed', 'under-review', 'won', 'lost', 'forfeited'], 'must be response-needed, under-review, won, lost or forfeited')),
  type: v.optional(v.picklist(disputeAlertTypes, 'must be Dispute, RDR or Fraud')),
  organization: v.optional(v.pipe(uuid, v.toLowerCase())),
  currency: v.optional(v.pipe(v.string(), v.regex(/^[A-Za-z]{3}$/, 'must be an ISO 4217 code such as USD'), v.toUpperCase())),
  stage: sandboxStage,
  json: v.optional(v.boolean()),
});

/** The sandbox processor opens or advances a dispute, or raises a dispute alert (sandbox only). */
async function sandboxDispute(argv: string[]): Promise<void> {
  const { values, positionals } = parse(
    'sandbox-dispute',
    argv,
    {
      amount: { type: 'string' },
      reason: { type: 'string' },
      category: { type: 'string' },
      to: { type: 'string' },
      type: { type: 'string' },
      organization: { type: 'string' },
      currency: { type: 'string' },
      stage: { type: 'string' },
      json: { type: 'boolean' },
    },
    true,
  );
  const [action, reference] = positionals;
  if (!['open', 'advance', 'alert'].includes(action ?? '') || positionals.length !== 2) {
    throw new UsageError(`sandbox-dispute needs open, advance or alert and one id\nUsage: ${usages['sandbox-dispute']}`);
  }
  const args = checked('sandbox-dispute', sandboxDisputeArgs, { ...values, reference });
  if (action === 'advance' && !args.to) throw new UsageError(`--to is required\nUsage: ${usages['sandbox-dispute']}`);
  if (action === 'alert' && !args.type) throw new UsageError(`--type is required\nUsage: ${usages['sandbox-dispute']}`);
  await target(args.stage);
  if (currentStage() !== 'sandbox') throw new Error('sandbox-dispute works on the sandbox deployment only.');
  if (action === 'alert') {
    const { createDisputeAlert } = await import('../../shared/payments/index.ts');
    const alert = await createDisputeAlert({
      transaction: args.reference,
      alertType: args.type!,
      reason: args.reason,
      organizationId: args.organization,
      amount: args.amount,
      currency: args.currency,
    });
    console.log(
      args.json
        ? JSON.stringify(alert)
        : `Alert ${alert.alertId} (${alert.alertType}) of ${alert.amount} ${alert.currency} on ${alert.transactionId ?? `unlinked ${alert.externalTransactionId}`}`,
    );
    return;
  }
  const sandbox = await import('../../shared/payments/index.ts');
  const dispute =
    action === 'open'
      ? await sandbox.openSandboxDispute({ transaction: args.reference, amount: args.amount, reason: args.reason, category: args.category })
      : await sandbox.advanceSandboxDispute(args.reference, args.to!, args.organization);
  console.log(
    args.json
      ? JSON.stringify(dispute)
      : `Dispute ${dispute.id} of ${dispute.amount} ${dispute.currency} on transaction ${dispute.transactionId} (organization ${dispute.organizationId}): ${dispute.status}`,
  );
}

/** The flags of the commands that run a scheduled job's work as of a time (release-funds, reconcile). */
const asOfArgs = v.object({
  'as-of': v.optional(v.pipe(v.string(), v.isoTimestamp('must be an ISO 8601 date-time such as 2026-01-31T00:00:00Z'))),
  merchant: v.optional(v.pipe(uuid, v.toLowerCase())),
  stage,
  json: v.optional(v.boolean()),
});

/**
 * The flags of an as-of command, its stage targeted, and its `--as-of` (default now): a time later than now is refused
 * on live, for `why`.
 */
async function asOfCommand(command: 'release-funds' | 'reconcile', argv: string[], why: string) {
  const { values } = parse(command, argv, { 'as-of': { type: 'string' }, merchant: { type: 'string' }, stage: { type: 'string' }, json: { type: 'boolean' } });
  const args = checked(command, asOfArgs, values);
  const now = new Date();
  const asOf = args['as-of'] ? new Date(args['as-of']) : now;
  await target(args.stage);
  if (currentStage() === 'live' && asOf.getTime() > now.getTime()) {
    throw new UsageError(`--as-of may not be later than now on live: ${why}\nUsage: ${usages[command]}`);
  }
  return { ...args, asOf };
}

/** Releases held funds due by `--as-of` (what the scheduled function runs hourly on the deployed stages). */
async function releaseFunds(argv: string[]): Promise<void> {
  const { asOf, ...args } = await asOfCommand('release-funds', argv, 'funds are released only once their hold period has ended');
  const [{ releaseDueFunds }, { getMerchant }] = await Promise.all([import('../../shared/money/index.ts'), import('../../shared/people/index.ts')]);
  if (args.merchant && !(await getMerchant(args.merchant))) throw new Error(`No merchant ${args.merchant} on this stack`);
  const released = await releaseDueFunds(asOf, args.merchant ? { merchantId: args.merchant } : {});
  const result = { released, asOf: asOf.toISOString(), merchantId: args.merchant ?? null };
  console.log(
    args.json
      ? JSON.stringify(result)
      : `Released ${released} payment${released === 1 ? '' : 's'}' held funds due by ${result.asOf}${args.merchant ? ` for merchant ${args.merchant}` : ''}`,
  );
}

/** Settles the charges and refunds left unsettled (what the scheduled reconciler runs every 5 minutes). */
async function reconcileCommand(argv: string[]): Promise<void> {
  const { asOf, ...args } = await asOfCommand('reconcile', argv, 'an operation is reconciled only once no request can still be settling it');
  // A subscription charge it settles mails its customer a receipt that links the billing portal, on the dashboard's origin.
  if (args.stage && !process.env.DASHBOARD_URL) {
    throw new UsageError(
      `reconcile --stage needs DASHBOARD_URL: the stage's dashboard URL (its -c dashboardUrl), which the mails it writes link to.\nUsage: ${usages.reconcile}`,
    );
  }
  const { reconcile } = await import('../../shared/reconciliation/index.ts');
  const result = await reconcile(asOf, args.merchant ? { organizationId: args.merchant } : {});
  const line = (what: string, c: { settled: number; failed: number; left: number }) =>
    `${what}: ${c.settled} settled, ${c.failed} failed (no processor record), ${c.left} left`;
  // One merchant's: then its ledger is checked too, each balance against the sum of its journals.
  const ledger = args.merchant ? await ledgerOf(args.merchant) : null;
  const sound = (c: { matches: boolean; unbalancedJournalIds: string[] }) => c.matches && c.unbalancedJournalIds.length === 0;
  console.log(
    args.json
      ? JSON.stringify(ledger ? { ...result, ledger } : result)
      : [
          `Reconciled as of ${result.asOf}. ${line('Charges', result.charges)}; ${line('refunds', result.refunds)}.`,
          ...(ledger
            ? ledger.map((c) =>
                sound(c)
                  ? `Ledger ${c.currency}: the balances are the sum of the journals.`
                  : `Ledger ${c.currency}: DIFFERS. Balances ${JSON.stringify(c.balances)}; journals sum to ${JSON.stringify(c.journals)}${c.unbalancedJournalIds.length ? `; unbalanced journals: ${c.unbalancedJournalIds.join(', ')}` : ''}.`,
              )
            : []),
        ].join('\n'),
  );
  // A difference fails the command (an alarm or a script sees it); a movement booked while it ran can show as one: run it again.
  if (ledger?.some((c) => !sound(c))) process.exitCode = 1;
}

/** The ledger check of merchant `merchantId` (`checkLedger`). */
async function ledgerOf(merchantId: string) {
  const [{ getMerchant }, { checkLedger }] = await Promise.all([import('../../shared/people/index.ts'), import('../../shared/money/index.ts')]);
  const merchant = await getMerchant(merchantId);
  if (!merchant) throw new Error(`No merchant ${merchantId} on this stack`);
  return checkLedger(merchant);
}

/**
 * A one-time upgrade step (`--stage`, `--json`): points this process at the stage, runs `step` and prints its result
 * as JSON or as `said` says it.
 */
async function upgradeStep<R>(command: Command, argv: string[], step: () => Promise<R>, said: (result: R) => string): Promise<void> {
  const { values } = parse(command, argv, { stage: { type: 'string' }, json: { type: 'boolean' } });
  const args = checked(command, v.object({ stage, json: v.optional(v.boolean()) }), values);
  await target(args.stage);
  const result = await step();
  console.log(args.json ? JSON.stringify(result) : said(result));
}

/** Moves customers from their organization's former single partition to their own (once, after the split). */
const moveCustomers = (argv: string[]) =>
  upgradeStep(
    'move-customers',
    argv,
    async () => (await import('../../shared/customers/index.ts')).moveFormerCustomers(),
    (r) =>
      `Moved ${r.moved} customer${r.moved === 1 ? '' : 's'} to their partitions${r.changedMeanwhile ? `; ${r.changedMeanwhile} changed while this ran: run it again` : ''}`,
  );

/** Lists what people made under them (once, after the deploy that lists them). */
const listMade = (argv: string[]) =>
  upgradeStep(
    'list-made',
    argv,
    async () => (await import('../../shared/people/index.ts')).listFormerlyMade(),
    (r) => `Listed ${r.listed} (API keys, webhook destinations and own accounts) under the people who made them`,
  );

/** Puts customers' records on the customers' index and subscriptions' payments on theirs (once, after the deploy that added one). */
const indexRecords = (argv: string[]) =>
  upgradeStep(
    'index-records',
    argv,
    async () => (await import('../../shared/platform/db/listing.ts')).indexListedRecords(),
    (r) => `Put ${r.indexed} record${r.indexed === 1 ? '' : 's'} on the customers' and subscriptions' indexes`,
  );

const advancePayoutArgs = v.object({
  withdrawalId: v.pipe(v.string(), v.regex(WITHDRAWAL_ID_PATTERN, 'must be a payout id (po_…)')),
  to: v.picklist(['in_transit', 'paid', 'failed', 'canceled'], 'must be in_transit, paid, failed or canceled'),
  stage: v.optional(v.literal('sandbox', 'must be sandbox (live payouts have no sandbox bank)')),
  json: v.optional(v.boolean()),
});

/** The sandbox bank moves a payout to its next status. */
async function advancePayout(argv: string[]): Promise<void> {
  const { values, positionals } = parse('advance-payout', argv, { to: { type: 'string' }, stage: { type: 'string' }, json: { type: 'boolean' } }, true);
  if (positionals.length !== 1) throw new UsageError(`advance-payout needs one payout id\nUsage: ${usages['advance-payout']}`);
  const args = checked('advance-payout', advancePayoutArgs, { ...values, withdrawalId: positionals[0] });
  await target(args.stage);
  if (currentStage() !== 'sandbox') throw new Error('advance-payout works on the sandbox deployment only.');
  const { advanceWithdrawal } = await import('../../shared/money/index.ts');
  const payout = await advanceWithdrawal(args.withdrawalId, args.to);
  console.log(
    args.json
      ? JSON.stringify(payout)
      : `Payout ${payout.withdrawalId} of ${payout.amount} ${payout.currency} (merchant ${payout.merchantId}): ${payout.status}${payout.externalWithdrawalId ? ` (${payout.externalWithdrawalId})` : ''}`,
  );
}

const commands: Record<Command, (argv: string[]) => Promise<void>> = {
  'create-merchant': createMerchant,
  'create-account': createAccount,
  'emit-event': emitEvent,
  emails,
  'dead-letters': deadLetters,
  'release-funds': releaseFunds,
  reconcile: reconcileCommand,
  'advance-payout': advancePayout,
  'sandbox-dispute': sandboxDispute,
  'simulate-refund': simulateRefund,
  'decline-instrument': declineInstrument,
  'move-customers': moveCustomers,
  'list-made': listMade,
  'index-records': indexRecords,
  listen,
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
