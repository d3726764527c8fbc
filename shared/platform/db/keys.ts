/**
 * Every key of the single table is built here and nowhere else. Each builder is its own export, and modules import
 * this file as a namespace (`import * as keys from '…/keys.ts'`, then `keys.merchant(id)`): esbuild then keeps in a
 * function's bundle only the builders that function calls (the `keys` object at the end is for the modules that still
 * import the whole table at once).
 *
 * | entity     | pk                      | sk                 | gsi1pk / gsi1sk                              |
 * |------------|-------------------------|--------------------|----------------------------------------------|
 * | merchant   | MERCHANT#<id>           | MERCHANT           | CHILDREN#<parentId> / <createdAt>#<id>       |
 * | api key    | APIKEY#<keyId>          | APIKEY             | APIKEYS#<merchantId> / <createdAt>#<keyId>   |
 * | user       | USER#<id>               | USER               |                                              |
 * | e-mail     | EMAIL#<lowercased>      | EMAIL              |                                              |
 * | membership | MERCHANT#<merchantId>   | MEMBER#<userId>    | MEMBERSHIPS#<userId> / MERCHANT#<merchantId> |
 * | team invite| MERCHANT#<merchantId>   | INVITE#<inviteId>  | (listed by a Query of the merchant's partition) |
 * | session    | SESSION#<sessionId>     | SESSION            |                                              |
 * | event      | EVENT#<eventId>         | EVENT              | EVENTS#<merchantId> / <createdAt>#<eventId>  |
 * | webhook    | MERCHANT#<merchantId>   | WEBHOOK#<destId>   |                                              |
 * | delivery   | WEBHOOK#<destId>        | DELIVERY#<eventId> |                                              |
 * | mail       | MAIL#<mailId>           | MAIL               | MAILS / <sentAt>#<mailId>                    |
 * | account    | ACCOUNT#<accountId>     | ACCOUNT            |                                              |
 * | org key    | ORGKEY#<apiKeyId>       | ORGKEY             | ORGKEYS#<accountId> / <createdAt>#<keyId>    |
 * | org link   | MERCHANT#<orgId>        | ACCOUNT#<accountId>| ACCOUNTORGS#<accountId> / MERCHANT#<orgId>   |
 * | onboarding | MERCHANT#<orgId>        | ONBOARDING         |                                              |
 * | throttle   | THROTTLE#<scope>#<key>  | WINDOW#<start s>   |                                              |
 * | client tok.| CLIENTTOKEN#<verifier>  | CLIENTTOKEN        |                                              |
 * | acct webhook | ACCOUNT#<accountId>   | WEBHOOK#<destId>   |                                              |
 * | acct wh count| ACCOUNT#<accountId>   | WEBHOOKCOUNT       |                                              |
 * | checkout policies | MERCHANT#<orgId>   | CHECKOUTPOLICIES   |                                              |
 * | OAuth client | OAUTHCLIENT#<clientId> | OAUTHCLIENT      |                                              |
 * | OAuth code  | OAUTHCODE#<sha256(code)> | OAUTHCODE       |                                              |
 * | OAuth family| OAUTHFAMILY#<familyId> | OAUTHFAMILY        | OAUTHFAMILIES#<merchantId>#<userId> / <createdAt>#<familyId> |
 * | OAuth token | OAUTHTOKEN#<tokenId>   | OAUTHTOKEN         |                                              |
 * | MCP token  | MCPTOKEN#<tokenId>      | MCPTOKEN           | MCPTOKENS#<merchantId>#<userId> / <createdAt>#<tokenId> |
 *
 * Catalog records of an organization (websites, products, plans, promo codes) live in their own partition,
 * found by id in one read (the record's `organizationId` is checked), and are listed through two indexes:
 * gsi1 by creation time and gsi2 by last update, both partitioned by `<COLLECTION>#<orgId>`:
 *
 * | entity      | pk                 | sk                                  | gsi1pk / gsi1sk (gsi2 the same with updatedAt) |
 * |-------------|--------------------|-------------------------------------|------------------------------------------------|
 * | website     | WEBSITE#<id>       | WEBSITE                             | WEBSITES#<orgId> / <createdAt>#<id>            |
 * | product     | PRODUCT#<id>       | PRODUCT                             | PRODUCTS#<orgId> / <createdAt>#<id>            |
 * | plan        | PLAN#<id>          | PLAN                                | PLANS#<orgId> / <createdAt>#<id>               |
 * | promo code  | PROMO#<id>         | PROMO                               | PROMOS#<orgId> / <createdAt>#<id>              |
 * | promo claim | MERCHANT#<orgId>   | PROMOCODE#<lowercased code>         |                                                |
 * | custom field| MERCHANT#<orgId>   | CUSTOMFIELD#<resource>#<name>       | CUSTOMFIELDS#<orgId> / <resource>#<name>       |
 * | customer    | CUSTOMERS#<orgId>  | CUSTOMER#<id>                       | (listed by a Query of its partition)           |
 * | payment instrument | PAYMENTINSTRUMENT#<id> | PAYMENTINSTRUMENT         | CUSTOMERINSTRUMENTS#<orgId>#<customerId> / <createdAt>#<id> (gsi1 only) |
 * | card token  | CARDTOKEN#<id>     | CARDTOKEN                           | CARDTOKENS#<orgId> / <createdAt>#<id> (gsi1 only) |
 * | transaction | TRANSACTION#<id>   | TRANSACTION                         | TRANSACTIONS#<orgId> / <createdAt>#<id>        |
 * | refund      | TRANSACTION#<txId> | REFUND#<refundId>                   | (listed by a Query of its transaction's partition) |
 * | idempotency | IDEMPOTENCY#<orgId>#<operation>#<key> | IDEMPOTENCY      |                                                |
 * | order       | ORDER#<orderId>    | ORDER                               |                                                |
 * | payout method | MERCHANT#<merchantId> | PAYOUTMETHOD#<id>               | (listed by a Query of the merchant's partition) |
 * | withdrawal  | WITHDRAWAL#<id>    | WITHDRAWAL                          | WITHDRAWALS#<merchantId> / <createdAt>#<id> (gsi1 only) |
 * | invoice     | INVOICE#<invoiceId>| INVOICE                             | INVOICES#<orgId> / <createdAt>#<id> (gsi2 updatedAt) |
 * | inv. number | MERCHANT#<orgId>   | INVOICENUMBER                       |                                                |
 * | receipt     | TRANSACTION#<txId> | RECEIPT                             | (beside its checkout payment's transaction)    |
 * | receipt counter | MERCHANT#<orgId> | RECEIPTNUMBER                     |                                                |
 * | receipt no. | MERCHANT#<orgId>   | RECEIPTNUMBER#<n>                   | (one per number: unique per organization)      |
 * | dispute     | DISPUTE#<orgId>#<id> | DISPUTE                           | DISPUTES#<orgId> / <createdAt>#<id>            |
 * | dispute claim | TRANSACTION#<transactionId> | DISPUTE                  | (one dispute per transaction)                  |
 * | dispute alert | DISPUTEALERT#<id> | DISPUTEALERT                       | DISPUTEALERTS#<orgId> / <createdAt>#<id> (gsi1 only) |
 * | sandbox dispute | SANDBOXDISPUTE#<dp_ id> | SANDBOXDISPUTE               | (its organization, for the operator command)  |
 * | subscription | SUBSCRIPTION#<id>  | SUBSCRIPTION                        | SUBSCRIPTIONS#<orgId> / <createdAt>#<id>; gsi3 (sparse): SUBSCRIPTIONSDUE#<shard> / <dueAt>#<id> |
 * | subscription cancellation | SUBCANCEL#<id> | SUBCANCEL               | SUBCANCELS#<orgId> / <createdAt>#<id>          |
 * | subscription pause | SUBPAUSE#<id> | SUBPAUSE                       | SUBPAUSES#<orgId> / <createdAt>#<id>           |
 * | subscription reactivation | SUBREACT#<id> | SUBREACT                | SUBREACTS#<orgId> / <createdAt>#<id>           |
 * | test clock  | MERCHANT#<orgId>   | TESTCLOCK                           | (sandbox only)                                 |
 *
 * The sandbox processor's own state (shared/payments/processor/sandbox-processor.ts), apart from the platform's records:
 *
 * | entity         | pk                                   | sk             | gsi1pk / gsi1sk                               |
 * |----------------|--------------------------------------|----------------|-----------------------------------------------|
 * | sandbox card   | SANDBOXCARD#<reference>              | SANDBOXCARD    |                                               |
 * | sandbox charge | SANDBOXCHARGE#<base64url sha256(idempotency key)> | SANDBOXCHARGE | SANDBOXCHARGES#<reference> / <createdAt>#<id> (gsi2: SANDBOXCHARGEID#<id>) |
 * | sandbox refund | SANDBOXREFUND#<base64url sha256(idempotency key)> | SANDBOXREFUND |                                               |
 * | sandbox refunded | SANDBOXCHARGEREFUNDS#<chargeId>    | SANDBOXCHARGEREFUNDS |                                         |
 */
import { createHash } from 'node:crypto';

/**
 * How many partitions the release index of held funds is spread over. It may grow and never shrink: the release
 * job queries shards 0 to `RELEASE_SHARDS` − 1, so items written under a smaller count are still read.
 */
export const RELEASE_SHARDS = 8;

/**
 * The shard of a sharded index an item with this id is written to: the first 32 bits of the id's SHA-256, modulo
 * `shards` (even and repeatable, whatever the id's form).
 */
export const shardOf = (id: string, shards: number): number => createHash('sha256').update(id).digest().readUInt32BE(0) % shards;

/** The release index shard of a transaction. */
export const releaseShard = (transactionId: string): number => shardOf(transactionId, RELEASE_SHARDS);

const releasePartition = (shard: number) => `RELEASES#${shard}`;

/** Collections of catalog records (their partition and index prefixes). */
export type CatalogCollection =
  | 'WEBSITE'
  | 'PRODUCT'
  | 'PLAN'
  | 'PROMO'
  | 'CARDTOKEN'
  | 'TRANSACTION'
  | 'DISPUTE'
  | 'INVOICE'
  | 'SUBSCRIPTION'
  | 'SUBCANCEL'
  | 'SUBPAUSE'
  | 'SUBREACT'
  | 'WITHDRAWAL';

/**
 * Partitions of the unsettled-operations index (gsi3): every charge and refund writes it twice (claim, settlement),
 * so it is spread like the release index. It may grow and never shrink (the reconciler reads shards 0 to N − 1).
 */
export const UNSETTLED_SHARDS = 8;

/**
 * Partitions of the subscriptions' due index (gsi3): a subscription is written there whenever the engine next has
 * something to do for it. It may grow and never shrink (the sweeper reads shards 0 to N − 1).
 */
export const DUE_SHARDS = 8;

export const merchant = (id: string) => ({ pk: `MERCHANT#${id}`, sk: 'MERCHANT' });
export const merchantChildren = (parentId: string, createdAt: string, id: string) => ({
  gsi1pk: `CHILDREN#${parentId}`,
  gsi1sk: `${createdAt}#${id}`,
});

export const apiKey = (keyId: string) => ({ pk: `APIKEY#${keyId}`, sk: 'APIKEY' });
export const apiKeysOfMerchant = (merchantId: string) => ({ gsi1pk: `APIKEYS#${merchantId}` });
export const apiKeyListing = (merchantId: string, createdAt: string, keyId: string) => ({
  gsi1pk: `APIKEYS#${merchantId}`,
  gsi1sk: `${createdAt}#${keyId}`,
});

export const user = (id: string) => ({ pk: `USER#${id}`, sk: 'USER' });
export const email = (email: string) => ({ pk: `EMAIL#${email.toLowerCase()}`, sk: 'EMAIL' });

export const membership = (merchantId: string, userId: string) => ({ pk: `MERCHANT#${merchantId}`, sk: `MEMBER#${userId}` });
export const membershipsOfUser = (userId: string) => ({ gsi1pk: `MEMBERSHIPS#${userId}` });
/** The team of a merchant: its membership items, in the merchant's partition. */
export const membersOf = (merchantId: string) => ({ pk: `MERCHANT#${merchantId}`, skPrefix: 'MEMBER#' });
export const membershipListing = (userId: string, merchantId: string) => ({
  gsi1pk: `MEMBERSHIPS#${userId}`,
  gsi1sk: `MERCHANT#${merchantId}`,
});
/** A pending invitation to a merchant's team, in the merchant's partition (one per invited e-mail: its id derives from it). */
export const teamInvite = (merchantId: string, inviteId: string) => ({ pk: `MERCHANT#${merchantId}`, sk: `INVITE#${inviteId}` });
/** A merchant's pending team invitations: one Query of its partition. */
export const teamInvitesOf = (merchantId: string) => ({ pk: `MERCHANT#${merchantId}`, skPrefix: 'INVITE#' });

export const session = (sessionId: string) => ({ pk: `SESSION#${sessionId}`, sk: 'SESSION' });

export const event = (eventId: string) => ({ pk: `EVENT#${eventId}`, sk: 'EVENT' });
export const eventListing = (merchantId: string, createdAt: string, eventId: string) => ({
  gsi1pk: `EVENTS#${merchantId}`,
  gsi1sk: `${createdAt}#${eventId}`,
});
/** A merchant's events on gsi1, sorted by `<createdAt>#<eventId>` (real time, the id's: the events API's listing). */
export const eventsOfMerchant = (merchantId: string) => ({ gsi1pk: `EVENTS#${merchantId}` });

export const webhookDestination = (merchantId: string, destinationId: string) => ({ pk: `MERCHANT#${merchantId}`, sk: `WEBHOOK#${destinationId}` });
export const webhookDestinationsOf = (merchantId: string) => ({ pk: `MERCHANT#${merchantId}`, skPrefix: 'WEBHOOK#' });
/** A webhook destination of an organization-API account (organization face), in the account's partition. */
export const accountWebhookDestination = (accountId: string, destinationId: string) => ({ pk: `ACCOUNT#${accountId}`, sk: `WEBHOOK#${destinationId}` });
/** Every webhook destination of an account: one Query. */
export const accountWebhookDestinationsOf = (accountId: string) => ({ pk: `ACCOUNT#${accountId}`, skPrefix: 'WEBHOOK#' });
/** How many webhook destinations an account has (the guard of its limit). */
export const accountWebhookCount = (accountId: string) => ({ pk: `ACCOUNT#${accountId}`, sk: 'WEBHOOKCOUNT' });
/** Delivery records of merchant and account destinations alike (destination ids never collide: `wh_…` / `whd_…`). */
export const delivery = (destinationId: string, eventId: string) => ({ pk: `WEBHOOK#${destinationId}`, sk: `DELIVERY#${eventId}` });
export const deliveriesOf = (destinationId: string) => ({ pk: `WEBHOOK#${destinationId}`, skPrefix: 'DELIVERY#' });

export const mail = (mailId: string) => ({ pk: `MAIL#${mailId}`, sk: 'MAIL' });
export const mailListing = (sentAt: string, mailId: string) => ({ gsi1pk: 'MAILS', gsi1sk: `${sentAt}#${mailId}` });

export const account = (accountId: string) => ({ pk: `ACCOUNT#${accountId}`, sk: 'ACCOUNT' });
export const orgApiKey = (apiKeyId: string) => ({ pk: `ORGKEY#${apiKeyId}`, sk: 'ORGKEY' });
export const orgApiKeyListing = (accountId: string, createdAt: string, apiKeyId: string) => ({
  gsi1pk: `ORGKEYS#${accountId}`,
  gsi1sk: `${createdAt}#${apiKeyId}`,
});
export const accountLink = (organizationId: string, accountId: string) => ({ pk: `MERCHANT#${organizationId}`, sk: `ACCOUNT#${accountId}` });
export const accountLinksOf = (organizationId: string) => ({ pk: `MERCHANT#${organizationId}`, skPrefix: 'ACCOUNT#' });
export const accountLinkListing = (accountId: string, organizationId: string) => ({
  gsi1pk: `ACCOUNTORGS#${accountId}`,
  gsi1sk: `MERCHANT#${organizationId}`,
});
export const onboarding = (organizationId: string) => ({ pk: `MERCHANT#${organizationId}`, sk: 'ONBOARDING' });
/** An attempt counter: one item per (scope, key, time window), the window named by its start (epoch seconds). */
export const throttle = (scope: string, key: string, windowStart: number) => ({ pk: `THROTTLE#${scope}#${key}`, sk: `WINDOW#${windowStart}` });
/** A hosted-fields client token, found by its verifier (a hash of the token; the token itself is never stored). */
export const clientToken = (verifier: string) => ({ pk: `CLIENTTOKEN#${verifier}`, sk: 'CLIENTTOKEN' });

/** A catalog record of an organization, in its own partition. */
export const catalogItem = (collection: CatalogCollection, id: string) => ({ pk: `${collection}#${id}`, sk: collection });
/** Both listings of a catalog record: by creation (gsi1) and by last update (gsi2). */
export const catalogListing = (collection: CatalogCollection, organizationId: string, id: string, createdAt: string, updatedAt: string) => ({
  gsi1pk: `${collection}S#${organizationId}`,
  gsi1sk: `${createdAt}#${id}`,
  gsi2pk: `${collection}S#${organizationId}`,
  gsi2sk: `${updatedAt}#${id}`,
});
export const catalogPartition = (collection: CatalogCollection, organizationId: string) => `${collection}S#${organizationId}`;
export const promoCodeClaim = (organizationId: string, code: string) => ({ pk: `MERCHANT#${organizationId}`, sk: `PROMOCODE#${code.toLowerCase()}` });
export const customField = (organizationId: string, resource: string, name: string) => ({
  pk: `MERCHANT#${organizationId}`,
  sk: `CUSTOMFIELD#${resource}#${name}`,
});
export const customFieldListing = (organizationId: string, resource: string, name: string) => ({
  gsi1pk: `CUSTOMFIELDS#${organizationId}`,
  gsi1sk: `${resource}#${name}`,
});

/** A customer of an organization: all of an organization's customers share one partition, keyed by id. */
export const customer = (organizationId: string, customerId: string) => ({ pk: `CUSTOMERS#${organizationId}`, sk: `CUSTOMER#${customerId}` });
/** The organization's customers whose id starts with `idPrefix` (`cus_` plus hex digits: one list segment). */
export const customersOf = (organizationId: string, idPrefix: string) => ({ pk: `CUSTOMERS#${organizationId}`, skPrefix: `CUSTOMER#${idPrefix}` });

/** A customer's saved payment instrument, in its own partition (found by id in one read; `organizationId` is checked). */
export const paymentInstrument = (id: string) => ({ pk: `PAYMENTINSTRUMENT#${id}`, sk: 'PAYMENTINSTRUMENT' });
/** A customer's payment instruments, listed by creation (gsi1): one partition per (organization, customer). */
export const customerInstrumentListing = (organizationId: string, customerId: string, createdAt: string, id: string) => ({
  gsi1pk: `CUSTOMERINSTRUMENTS#${organizationId}#${customerId}`,
  gsi1sk: `${createdAt}#${id}`,
});
export const customerInstrumentsOf = (organizationId: string, customerId: string) => ({ gsi1pk: `CUSTOMERINSTRUMENTS#${organizationId}#${customerId}` });

/** A card token is a catalog record (`catalogItem('CARDTOKEN', id)`), listed by creation only (gsi1). */
export const cardTokenListing = (organizationId: string, id: string, createdAt: string) => ({
  gsi1pk: `CARDTOKENS#${organizationId}`,
  gsi1sk: `${createdAt}#${id}`,
});
/** The sandbox processor's vault entry of a card (its behaviour, never its number). */
export const sandboxCard = (reference: string) => ({ pk: `SANDBOXCARD#${reference}`, sk: 'SANDBOXCARD' });
/** The sandbox processor's charge made under an idempotency key (the key's SHA-256, base64url). */
export const sandboxCharge = (idempotencyKeyHash: string) => ({ pk: `SANDBOXCHARGE#${idempotencyKeyHash}`, sk: 'SANDBOXCHARGE' });
export const sandboxChargeListing = (reference: string, createdAt: string, chargeId: string) => ({
  gsi1pk: `SANDBOXCHARGES#${reference}`,
  gsi1sk: `${createdAt}#${chargeId}`,
});
export const sandboxChargesOf = (reference: string) => ({ gsi1pk: `SANDBOXCHARGES#${reference}` });
/** A sandbox charge found by its id (`pay_…`): gsi2 of the charge item, so a refund names the charge by id. */
export const sandboxChargeById = (chargeId: string) => ({ gsi2pk: `SANDBOXCHARGEID#${chargeId}`, gsi2sk: 'SANDBOXCHARGE' });
/** The sandbox processor's refund made under an idempotency key (the key's SHA-256, base64url). */
export const sandboxRefund = (idempotencyKeyHash: string) => ({ pk: `SANDBOXREFUND#${idempotencyKeyHash}`, sk: 'SANDBOXREFUND' });
/** How much of a sandbox charge its refunds gave back (the processor's own limit). */
export const sandboxChargeRefunds = (chargeId: string) => ({ pk: `SANDBOXCHARGEREFUNDS#${chargeId}`, sk: 'SANDBOXCHARGEREFUNDS' });

/**
 * The idempotency record of one key of an organization for one operation (e.g. `transactions`): its own
 * partition, so a claim is one conditional Put. A transaction is a catalog record (`catalogItem('TRANSACTION', id)`).
 */
export const idempotency = (organizationId: string, operation: string, key: string) => ({
  pk: `IDEMPOTENCY#${organizationId}#${operation}#${key}`,
  sk: 'IDEMPOTENCY',
});

/** The processor's id of a charge (`pay_…`) → its transaction: legacy receipt ids resolve through it. */
export const externalTransaction = (externalId: string) => ({ pk: `EXTERNALTRANSACTION#${externalId}`, sk: 'EXTERNALTRANSACTION' });
/** A plan checkout session: its own partition, read by id (`cs_…`, unguessable). */
export const checkoutSession = (id: string) => ({ pk: `CHECKOUTSESSION#${id}`, sk: 'CHECKOUTSESSION' });
/**
 * The customer a checkout buyer's e-mail became in an organization (in the customers' partition, outside the
 * `CUSTOMER#` segments the list reads): a buyer who pays again is the same customer.
 */
export const checkoutBuyer = (organizationId: string, email: string) => ({ pk: `CUSTOMERS#${organizationId}`, sk: `BUYER#${email.toLowerCase()}` });

/** An order of the merchant API: its own partition, read by id (the record's `merchantId` is checked). */
export const order = (id: string) => ({ pk: `ORDER#${id}`, sk: 'ORDER' });

/** A ledger journal (append-only), listed per merchant by creation (gsi1). */
export const journal = (id: string) => ({ pk: `JOURNAL#${id}`, sk: 'JOURNAL' });
export const journalListing = (merchantId: string, createdAt: string, id: string) => ({ gsi1pk: `JOURNALS#${merchantId}`, gsi1sk: `${createdAt}#${id}` });
/** A merchant's balances in one currency, in the merchant's partition. */
export const balance = (merchantId: string, currency: string) => ({ pk: `MERCHANT#${merchantId}`, sk: `BALANCE#${currency}` });
export const balancesOf = (merchantId: string) => ({ pk: `MERCHANT#${merchantId}`, skPrefix: 'BALANCE#' });
/**
 * A payment's net while held, and its place in the release index (gsi2; sparse): one of `RELEASE_SHARDS` fixed
 * partitions, picked by a hash of the transaction id, sorted by due time, so `gsi2sk <= <asOf>#~` in each finds
 * everything due whatever its age (reasoning in shared/money/ledger.repository.ts).
 */
export const pendingFunds = (transactionId: string) => ({ pk: `PENDINGFUNDS#${transactionId}`, sk: 'PENDINGFUNDS' });
export const releaseListing = (transactionId: string, releaseAt: string) => ({
  gsi2pk: releasePartition(releaseShard(transactionId)),
  gsi2sk: `${releaseAt}#${transactionId}`,
});
/** One partition of the release index (`shard` from 0 to `RELEASE_SHARDS` − 1). */
export const releasesOf = (shard: number) => ({ gsi2pk: releasePartition(shard) });
/** A merchant's payout method (a bank account: last four digits only), in the merchant's partition. */
export const payoutMethod = (merchantId: string, payoutMethodId: string) => ({ pk: `MERCHANT#${merchantId}`, sk: `PAYOUTMETHOD#${payoutMethodId}` });
export const payoutMethodsOf = (merchantId: string) => ({ pk: `MERCHANT#${merchantId}`, skPrefix: 'PAYOUTMETHOD#' });
/** A withdrawal (payout): its own partition, read by id (the record's `merchantId` is checked). */
export const withdrawal = (withdrawalId: string) => ({ pk: `WITHDRAWAL#${withdrawalId}`, sk: 'WITHDRAWAL' });
/** A merchant's withdrawals listed by creation (gsi1 only), in the catalog listing's form (`listCatalogPage('WITHDRAWAL', …)`). */
export const withdrawalListing = (merchantId: string, createdAt: string, withdrawalId: string) => ({
  gsi1pk: catalogPartition('WITHDRAWAL', merchantId),
  gsi1sk: `${createdAt}#${withdrawalId}`,
});

/**
 * An operation claimed but not settled yet (a charge `sending`, a refund `pending`), on the sparse gsi3 until its
 * settlement removes it: the reconciler finds the old ones with one Query per shard (`shardOf` the id).
 */
export const unsettled = (operation: 'charge' | 'refund', id: string, createdAt: string) => ({
  gsi3pk: `UNSETTLED#${shardOf(id, UNSETTLED_SHARDS)}`,
  gsi3sk: `${createdAt}#${operation}#${id}`,
});
/**
 * A subscription's place on the due index (gsi3, sparse): the instant the renewal engine must next look at it,
 * in one of `DUE_SHARDS` partitions; absent when nothing will ever be due (ended, paused without an end).
 */
export const subscriptionDue = (subscriptionId: string, dueAt: string) => ({
  gsi3pk: `SUBSCRIPTIONSDUE#${shardOf(subscriptionId, DUE_SHARDS)}`,
  gsi3sk: `${dueAt}#${subscriptionId}`,
});
/**
 * A money movement of a subscription's step (a charge or a refund), in the subscription's own partition: under the
 * version the step was decided on, so the subscription's history says which step moved which money.
 */
export const subscriptionMoneyStep = (subscriptionId: string, decidedOnVersion: number, id: string) => ({
  pk: `SUBSCRIPTION#${subscriptionId}`,
  sk: `MONEYSTEP#${String(decidedOnVersion).padStart(10, '0')}#${id}`,
});
export const subscriptionMoneySteps = (subscriptionId: string) => ({ pk: `SUBSCRIPTION#${subscriptionId}`, skPrefix: 'MONEYSTEP#' });
/** One partition of the due index (`shard` from 0 to `DUE_SHARDS` − 1). */
export const subscriptionsDueOf = (shard: number) => ({ gsi3pk: `SUBSCRIPTIONSDUE#${shard}` });
/** An organization's sandbox test clock (how far it was moved ahead of real time). */
export const testClock = (organizationId: string) => ({ pk: `MERCHANT#${organizationId}`, sk: 'TESTCLOCK' });
/** One partition of the unsettled index (`shard` from 0 to `UNSETTLED_SHARDS` − 1). */
export const unsettledOf = (shard: number) => ({ gsi3pk: `UNSETTLED#${shard}` });
/** A refund of a transaction, in the transaction's partition (listed by a Query of it; ids are UUID v7). */
export const refund = (transactionId: string, refundId: string) => ({ pk: `TRANSACTION#${transactionId}`, sk: `REFUND#${refundId}` });
export const refundsOf = (transactionId: string) => ({ pk: `TRANSACTION#${transactionId}`, skPrefix: 'REFUND#' });

/**
 * A dispute: its id is the client's (unique per organization only), so the organization is part of the key. It is
 * listed like a catalog record (`catalogListing('DISPUTE', …)`).
 */
export const dispute = (organizationId: string, disputeId: string) => ({ pk: `DISPUTE#${organizationId}#${disputeId}`, sk: 'DISPUTE' });
/** The claim a transaction's dispute holds in the transaction's partition: one dispute per transaction. */
export const transactionDispute = (transactionId: string) => ({ pk: `TRANSACTION#${transactionId}`, sk: 'DISPUTE' });
/** The sandbox processor's pointer from a dispute it opened (`dp_…`, globally unique) to its organization. */
export const sandboxDispute = (disputeId: string) => ({ pk: `SANDBOXDISPUTE#${disputeId}`, sk: 'SANDBOXDISPUTE' });
/** A dispute alert: its own partition, listed per organization by creation (gsi1). */
export const disputeAlert = (alertId: string) => ({ pk: `DISPUTEALERT#${alertId}`, sk: 'DISPUTEALERT' });
export const disputeAlertListing = (organizationId: string, createdAt: string, alertId: string) => ({
  gsi1pk: `DISPUTEALERTS#${organizationId}`,
  gsi1sk: `${createdAt}#${alertId}`,
});

/**
 * An invoice (shared/invoicing/port.ts): its own partition, read by id (the record's `merchantId` is checked).
 * The same key as `catalogItem('INVOICE', id)`: an organization's customer invoices are listed through
 * `catalogListing('INVOICE', …)` (gsi1 by creation, gsi2 by last update).
 */
export const invoice = (id: string) => ({ pk: `INVOICE#${id}`, sk: 'INVOICE' });
/** The last customer invoice number an organization issued: raised in the same transaction as each issue. */
export const invoiceCounter = (organizationId: string) => ({ pk: `MERCHANT#${organizationId}`, sk: 'INVOICENUMBER' });

/**
 * A checkout payment's receipt, in its transaction's partition: what the buyer was shown of the seller (written with
 * the payment's claim) and, once the payment completed, its number.
 */
export const receipt = (transactionId: string) => ({ pk: `TRANSACTION#${transactionId}`, sk: 'RECEIPT' });
/** The last receipt number an organization took (one atomic increment per completed checkout payment). */
export const receiptCounter = (organizationId: string) => ({ pk: `MERCHANT#${organizationId}`, sk: 'RECEIPTNUMBER' });
/** Receipt number `n` of an organization, naming its transaction: written once (`attribute_not_exists`). */
export const receiptNumber = (organizationId: string, n: number) => ({ pk: `MERCHANT#${organizationId}`, sk: `RECEIPTNUMBER#${n}` });

/** An organization's checkout policy settings (its URL policies): one item in the merchant's partition. */
/** An OAuth client registered with the authorization server (RFC 7591). */
export const oauthClient = (clientId: string) => ({ pk: `OAUTHCLIENT#${clientId}`, sk: 'OAUTHCLIENT' });
/** An OAuth authorization code, found by the SHA-256 of the code (the code itself is never stored). */
export const oauthCode = (codeVerifier: string) => ({ pk: `OAUTHCODE#${codeVerifier}`, sk: 'OAUTHCODE' });
/** An OAuth token family: what one consent granted, and whether it still stands. */
export const oauthFamily = (familyId: string) => ({ pk: `OAUTHFAMILY#${familyId}`, sk: 'OAUTHFAMILY' });
/** A person's OAuth token families on one merchant, listed by creation (gsi1): what removing them from the team revokes. */
export const oauthFamilyListing = (merchantId: string, userId: string, createdAt: string, familyId: string) => ({
  gsi1pk: `OAUTHFAMILIES#${merchantId}#${userId}`,
  gsi1sk: `${createdAt}#${familyId}`,
});
export const oauthFamiliesOf = (merchantId: string, userId: string) => ({ gsi1pk: `OAUTHFAMILIES#${merchantId}#${userId}` });
/** An OAuth access or refresh token, found by its id (a derivation of the token). */
export const oauthToken = (tokenId: string) => ({ pk: `OAUTHTOKEN#${tokenId}`, sk: 'OAUTHTOKEN' });

/** A user MCP token (shared/agents), found by its id (derived from the token; the token itself is never stored). */
export const mcpToken = (tokenId: string) => ({ pk: `MCPTOKEN#${tokenId}`, sk: 'MCPTOKEN' });
/** A person's MCP tokens on one merchant, listed by creation (gsi1). */
export const mcpTokenListing = (merchantId: string, userId: string, createdAt: string, tokenId: string) => ({
  gsi1pk: `MCPTOKENS#${merchantId}#${userId}`,
  gsi1sk: `${createdAt}#${tokenId}`,
});
export const mcpTokensOf = (merchantId: string, userId: string) => ({ gsi1pk: `MCPTOKENS#${merchantId}#${userId}` });

export const checkoutPolicies = (organizationId: string) => ({ pk: `MERCHANT#${organizationId}`, sk: 'CHECKOUTPOLICIES' });
/** A merchant's checkout customization (display name, colours, logo): one item in the merchant's partition. */
export const checkoutCustomization = (merchantId: string) => ({ pk: `MERCHANT#${merchantId}`, sk: 'CHECKOUTCUSTOMIZATION' });

/**
 * Every builder above as one object, for the modules that import it so (`import { keys }`): their bundles carry every
 * builder, as esbuild keeps all of an object's properties. A module that imports this file as a namespace instead
 * (`import * as keys from '…/keys.ts'`) calls the same `keys.merchant(…)`, and its bundle keeps only the builders it
 * calls.
 */
export const keys = {
  merchant,
  merchantChildren,
  apiKey,
  apiKeysOfMerchant,
  apiKeyListing,
  user,
  email,
  membership,
  membershipsOfUser,
  membersOf,
  membershipListing,
  teamInvite,
  teamInvitesOf,
  session,
  event,
  eventListing,
  eventsOfMerchant,
  webhookDestination,
  webhookDestinationsOf,
  accountWebhookDestination,
  accountWebhookDestinationsOf,
  accountWebhookCount,
  delivery,
  deliveriesOf,
  mail,
  mailListing,
  account,
  orgApiKey,
  orgApiKeyListing,
  accountLink,
  accountLinksOf,
  accountLinkListing,
  onboarding,
  throttle,
  clientToken,
  catalogItem,
  catalogListing,
  catalogPartition,
  promoCodeClaim,
  customField,
  customFieldListing,
  customer,
  customersOf,
  paymentInstrument,
  customerInstrumentListing,
  customerInstrumentsOf,
  cardTokenListing,
  sandboxCard,
  sandboxCharge,
  sandboxChargeListing,
  sandboxChargesOf,
  sandboxChargeById,
  sandboxRefund,
  sandboxChargeRefunds,
  idempotency,
  externalTransaction,
  checkoutSession,
  checkoutBuyer,
  order,
  journal,
  journalListing,
  balance,
  balancesOf,
  pendingFunds,
  releaseListing,
  releasesOf,
  payoutMethod,
  payoutMethodsOf,
  withdrawal,
  withdrawalListing,
  unsettled,
  subscriptionDue,
  subscriptionsDueOf,
  subscriptionMoneyStep,
  subscriptionMoneySteps,
  testClock,
  unsettledOf,
  refund,
  refundsOf,
  dispute,
  transactionDispute,
  sandboxDispute,
  disputeAlert,
  disputeAlertListing,
  invoice,
  invoiceCounter,
  receipt,
  receiptCounter,
  receiptNumber,
  oauthClient,
  oauthCode,
  oauthFamily,
  oauthFamilyListing,
  oauthFamiliesOf,
  oauthToken,
  mcpToken,
  mcpTokenListing,
  mcpTokensOf,
  checkoutPolicies,
  checkoutCustomization,
} as const;
