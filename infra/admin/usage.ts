/**
 * The operator CLI's words: each command's usage (what `--help` prints), the whole usage, and how a command reads its
 * flags (`parse`, then `checked` against its schema): a bad flag is a `UsageError` naming it, with the command's usage.
 */
import { parseArgs, type ParseArgsConfig } from 'node:util';
import * as v from 'valibot';

/** Where `create-merchant` may take the owner's password from instead of the command line. */
export const PASSWORD_VARIABLE = 'MOR_OWNER_PASSWORD';
/** Where `listen` takes the merchant API key from: never a flag, so it stays out of shell history and `ps`. */
export const API_KEY_VARIABLE = 'MOR_API_KEY';

/** Each command's usage, as `--help` after it prints it. */
export const usages = {
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
  'dead-letters': `npm run -s admin -- dead-letters [--redrive <queue>] [--stage sandbox|live] [--json]
    How many messages each consumer gave up on wait on its queue's dead-letter queue (after 5 receives), and how
    many stream batches on the stream-failure queue: what the stage's <queue>-not-empty alarms watch. --json prints
    [{"queue","parkedOn","messages"}]. --redrive <queue> (webhooks, renewals, mails, …), once what failed is fixed,
    moves that dead-letter queue's messages back to the queue, whose consumer takes them again (each consumer is
    idempotent: what it did already, it does not do twice); --json prints {"queue","moved"}. A stream-failure
    message names a stream batch, not a record, and is not redriven.`,
  'release-funds': `npm run -s admin -- release-funds [--as-of <ISO 8601 time>] [--merchant <merchantId>] [--stage sandbox|live] [--json]
    Releases every payment's held net whose hold period has ended by --as-of (default now) from pending to
    available, of one merchant with --merchant: what the hourly schedule runs (deployed, and under npm start).
    Each payment is released once, however often this runs. A time later than now is refused on live.
    --json prints {"released","asOf","merchantId"}.`,
  reconcile: `npm run -s admin -- reconcile [--as-of <ISO 8601 time>] [--merchant <merchantId>] [--stage sandbox|live] [--json]
    Settles every charge and refund (of one merchant with --merchant) claimed more than 2 minutes before --as-of
    (default now) and still not settled,
    from the processor's own record, or fails it (giving the amount back) when the processor has none: what the
    schedule runs every 5 minutes (deployed, and under npm start). Nothing is settled twice, however often this
    runs. A time later than now is refused on live. With --stage, DASHBOARD_URL names the stage's dashboard URL
    (the mails a settlement writes link to it). With --merchant it then checks that merchant's ledger: in each
    currency, the balances read (item and shards) against the sum of its journals, and every journal balanced; a
    difference is printed and the command exits 1 (a movement booked while it ran can show as one: run it again).
    --json prints {"asOf","charges":{"settled","failed","left"},"refunds":{…}} and, with --merchant,
    "ledger":[{"currency","balances","journals","matches","unbalancedJournalIds"}].`,
  'advance-payout': `npm run -s admin -- advance-payout <withdrawalId> --to in_transit|paid|failed|canceled [--stage sandbox] [--json]
    Moves a sandbox payout on, as the bank would: pending → in_transit (writes payout.sent with a wd_… reference),
    in_transit → paid (paid out), and pending or in_transit → failed or canceled (the funds return to available).
    Sandbox only: live payouts have no sandbox bank.`,
  'sandbox-dispute': `npm run -s admin -- sandbox-dispute open <transactionId|pay_…> [--amount <major units>] [--reason <code>]
                        [--category <category>] [--stage sandbox] [--json]
       npm run -s admin -- sandbox-dispute advance <disputeId> --to under-review|response-needed|won|lost|forfeited
                        [--organization <organizationId>] [--stage sandbox] [--json]
       npm run -s admin -- sandbox-dispute alert <transactionId|externalTransactionId> --type Dispute|RDR|Fraud [--reason <text>]
                        [--organization <organizationId> --amount <major units> --currency <ISO>] [--stage sandbox] [--json]
    The sandbox processor's disputes. open: a dispute (response-needed) on a completed payment, for its amount or
    --amount; it writes dispute.created and reserves the amount. advance: the dispute's next status (dispute.updated,
    dispute.won or dispute.lost, and the ledger's journal); --organization only for a dispute an organization
    reported through the API (the ids the sandbox opens are found without it). alert: a dispute alert
    (dispute.alert_created); a reference that matches no transaction makes an unlinked alert (transactionId null),
    which needs --organization, --amount and --currency. Sandbox only.`,
  'simulate-refund': `npm run -s admin -- simulate-refund <transactionId> [--amount <major units>] [--reason <text>] [--stage sandbox] [--json]
    The sandbox processor refunds a completed transaction on its own (all that is left, or --amount), as a
    cardholder's bank would have it: the refund is recorded with source "processor" and, on reaching refunded,
    writes payment.refunded. Sandbox only (a live transaction has no processor to simulate).`,
  'decline-instrument': `npm run -s admin -- decline-instrument --organization <organizationId> --instrument <paymentInstrumentId>
                        [--code generic_decline|insufficient_funds|expired_card] [--restore] [--stage sandbox] [--json]
    The sandbox processor declines every charge of a saved payment instrument's card from now on, with --code
    (default generic_decline): a renewal decline after a first charge succeeded. --restore undoes it: the card does
    again what it did when it was vaulted (its test number's behaviour). Charges already made keep their result.
    Sandbox only: live cards are not the sandbox processor's.
    --json prints {"organizationId","paymentInstrumentId","customerId","brand","last4","behaviour"}.`,
  'move-customers': `npm run -s admin -- move-customers [--stage sandbox|live] [--json]
    Moves every customer still in its organization's former single partition (CUSTOMERS#<orgId>) to the partition
    of its id (CUSTOMERS#<orgId>#<first hex digit>), each in one transaction that writes it under its new key and
    deletes the old item only if it did not change meanwhile. Run it once right after deploying the version that
    split the partitions: until then a payment of a customer not moved yet is not settled at once (the reconciler
    settles it once the customer is moved). Running it again moves what changed meanwhile, and nothing twice.
    --json prints {"moved","changedMeanwhile"}.`,
  'list-made': `npm run -s admin -- list-made [--stage sandbox|live] [--json]
    Lists under their person every merchant API key, webhook destination and own account a person made before such
    things were listed so (each keeps who made it): a password reset that is an account's first proof of its address
    ends what is listed under the account. Run it once right after deploying the version that lists them; running it
    again lists nothing twice.
    --json prints {"listed"}.`,
  'index-records': `npm run -s admin -- index-records [--stage sandbox|live] [--json]
    Puts every subscription, invoice and payment of a customer not written since the customers' index (gsi4) was
    added on it, and every payment of a subscription not written since the subscriptions' index (gsi5) was added on
    that: the customers' index is what the portal's pages, the dashboard's customer page, a subscription's charges and
    a new card's retries read; the subscriptions' index what the transaction list filtered by a subscription reads.
    Run it once right after deploying a version that added one (its name before gsi5 was index-customer-records): until
    then such a record is missing from those pages and lists, and such a subscription is not retried when its
    customer sets a new card. It sets the indexes' attributes alone (nothing else of a record changes), so it may run
    beside traffic, and running it again is harmless.
    --json prints {"indexed"}.`,
  listen: `npm run -s admin -- listen --merchant <merchantId> --forward-to <url> [--events <type,type,…>]
                        [--since <ISO 8601 time | 30m | 2h | 7d>] [--interval <seconds>] [--api <base URL>]
    Polls the events API (GET …/merchants/<merchantId>/events) with the merchant API key in ${API_KEY_VARIABLE}
    (never on the command line) and forwards each new event to --forward-to: a POST of the exact body a
    delivery carries, signed exactly like one (X-Webhook-Event, X-Webhook-Id, X-Webhook-Timestamp,
    X-Webhook-Signature) with a secret made for this session and printed once at start: verify with it as with a
    destination's secret. Prints one line per event: time, type, id and the local answer's status (or the error).
    --events: only these catalog types. --since: first replay the history from then (ISO time, or a duration
    ago; the history keeps 30 days), oldest first; without it only events written from now on. It keeps its
    place by event id (the order events are written in), never by an event's time, so events a sandbox test clock
    dated ahead stop nothing after them. It forwards to --forward-to only: registered destinations get nothing.
    --interval: seconds between polls (default 2). --api: the API's base URL, ending in /api (default: the
    running local stack's, found as the other commands find it). Ctrl-C stops it.`,
} as const;

export type Command = keyof typeof usages;

/** The whole usage: `--help`, and what an unknown command prints. */
export const usage = `Usage: npm run -s admin -- <command> [flags]     (--help after a command: its usage)

${Object.values(usages).join('\n\n')}

Without --stage every command works on the running local stack: the one \`npm start\` recorded, or the one
PORT / DYNAMODB_PORT / SQS_PORT name, as the stage that stack runs as (its own, marked on its table: STAGE need
not be set, and a STAGE naming the other stage is refused). With --stage sandbox|live it works on that deployed
stage's table, with the AWS credentials and region of your environment.`;

/** A usage error: the message and the command's usage on stderr, exit status 1. */
export class UsageError extends Error {}

/** Parses `argv` for `command`; `--help` prints the command's usage and exits 0. */
export function parse<T extends NonNullable<ParseArgsConfig['options']>>(command: Command, argv: string[], options: T, positionals = false) {
  let parsed: ReturnType<typeof parseArgs<{ args: string[]; options: T & { help: { type: 'boolean'; short: 'h' } }; allowPositionals: boolean }>>;
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

/** The values commands take as positional arguments (`<transactionId>` in their usage), not as flags. */
const POSITIONAL_VALUES = new Set(['transactionId', 'withdrawalId', 'reference']);

/** The flags, checked by `schema`; the first problem is a usage error naming the flag. */
export function checked<S extends v.GenericSchema>(command: Command, schema: S, values: unknown): v.InferOutput<S> {
  const result = v.safeParse(schema, values);
  if (result.success) return result.output;
  const issue = result.issues[0];
  const flag = v.getDotPath(issue);
  const named = flag === 'owner-password' ? `--${flag} (or ${PASSWORD_VARIABLE})` : flag !== null && POSITIONAL_VALUES.has(flag) ? `<${flag}>` : `--${flag}`;
  throw new UsageError(`${named} ${issue.received === 'undefined' ? 'is required' : issue.message}\nUsage: ${usages[command]}`);
}
