/** The API reference's entries of the subscriptions routes (`shared/subscriptions/routes.ts`), read only by the OpenAPI document's builder. */
import { exampleIds as ids } from '../platform/http/example-ids.ts';
import { declined, conflict, advancing, subscriptionNotFound, taxUnavailable, notLive } from '../platform/http/reference-examples.ts';
import type { ModuleDocs } from '../platform/http/route-docs.ts';
import type * as routes from './routes.ts';

export const subscriptionsDocs = {
  listSubscriptions: {
    description:
      "The organization's subscriptions, a page (`limit` 0–100, `offset`) at a time, sorted by `createdAt` (default), `updatedAt` or `nextCharge` (no next charge last) in `sortDirection`. Filters: `statuses` (comma-separated), `customerId`, `planId` (any of its items), `search` (id, name, customer name or e-mail) and `showTestData`.",
    example: {
      params: { organizationId: ids.organizationId },
      query: { statuses: 'active,past-due', sortBy: 'nextCharge', sortDirection: 'asc', limit: '20' },
    },
    errors: [{ status: 422, code: 'subscription.sort_too_broad', when: 'More than 10000 subscriptions match a `nextCharge` sort: narrow the filters.' }],
  },
  createSubscription: {
    description:
      "Subscribes a customer to one or more recurring plans of the organization, all active and of one currency and billing cycle. It renews on `paymentInstrumentId` (one of the customer's), or without one on the customer's primary instrument at each charge. Starting now without a trial, the first period is charged before the answer (`active`, with its invoice); a trial (the first plan's, or `trial`) or a later `startAt` charges nothing yet. `renewalTime` anchors the periods, the short first one prorated. Emits `subscription.created` when it first becomes active or starts its trial. An optional `Idempotency-Key` (1–255 printable ASCII) makes a retry safe: the same key and body answer the first answer again (a 402 as much as a 201) with `Idempotent-Replayed: true`, and never make a second subscription or charge; a request refused before anything was made (a 4xx but the 402) leaves the key free for the corrected request.",
    example: {
      params: { organizationId: ids.organizationId },
      headers: { 'Idempotency-Key': 'signup-4711-pro' },
      body: {
        customerId: ids.subscriberCustomerId,
        paymentInstrumentId: ids.subscriberPaymentInstrumentId,
        items: [{ plan: ids.subscriptionPlanId, quantity: 1 }],
      },
    },
    errors: [
      {
        status: 402,
        code: 'payment.declined',
        when: 'The first payment was declined (`details.declineCode`): the subscription is left `incomplete` and never renews.',
      },
      { status: 404, code: 'customer.not_found', when: 'The organization has no customer `customerId`.' },
      { status: 404, code: 'payment_instrument.not_found', when: "`paymentInstrumentId` is not one of the customer's instruments (or it was removed)." },
      { status: 404, code: 'plan.not_found', when: 'An item names a plan the organization does not have.' },
      { status: 422, code: 'subscription.plan_inactive', when: 'An item names an archived plan.' },
      { status: 422, code: 'subscription.plan_not_recurring', when: 'An item names a plan sold once.' },
      { status: 422, code: 'subscription.mixed_currencies', when: 'The plans are priced in different currencies.' },
      {
        status: 422,
        code: 'subscription.amount_over_limit',
        when: 'One period of the items costs more than 10,000,000 major units before tax, the most one charge takes.',
      },
      { status: 422, code: 'subscription.mixed_cycles', when: 'The plans renew on different cycles.' },
      { status: 422, code: 'subscription.no_payment_instrument', when: 'No `paymentInstrumentId`, and the customer has no primary instrument.' },
      { status: 422, code: 'subscription.trial_without_end', when: '`trial.enabled` is true but neither the plan nor `trial.endAt` says when it ends.' },
      { status: 422, code: 'subscription.trial_ends_before_start', when: '`trial.endAt` is not after the start.' },
      { status: 422, code: 'subscription.renewal_before_start', when: '`renewalTime` is not after billing starts (the start, or the end of the trial).' },
      { status: 422, code: 'subscription.renewal_too_far', when: '`renewalTime` is more than one billing cycle after billing starts.' },
      { status: 422, code: 'subscription.trial_only_without_trial', when: '`isTrialOnly` without a trial.' },
      {
        status: 422,
        code: 'subscription.billing_address_required',
        when: "Neither the customer's address nor the payment instrument's billing address names a country: tax is charged where the buyer is, so set the customer's address first.",
      },
      taxUnavailable,
      notLive,
      { status: 409, code: 'idempotency.in_progress', when: 'A request with this `Idempotency-Key` is still being processed: retry with the same key.' },
      { status: 422, code: 'idempotency.key_reused', when: 'The `Idempotency-Key` was used before with another body.' },
    ],
  },
  getSubscription: {
    description:
      "A subscription: status, items and price, the current period and `nextCharge`, trial and end times, the credit it holds and the renewal reminders sent. An item's `price` is what its line costs a cycle before tax, the plan's price × `quantity`. With `showTestData=false` a test subscription is not found.",
    example: { params: { organizationId: ids.organizationId, subscriptionId: ids.subscriptionId } },
  },
  updateSubscriptionItems: {
    description:
      "Replaces a subscription's items with plans of the same currency and cycle. `retain` (default) keeps the renewal time: without `proRataCredit` the new price applies from the next renewal; with it, the unused part of the paid period is credited and the rest of it charged at the new price, to the second, as one payment (a negative difference is kept as credit for the next renewals). `reset` starts a new period now, charged in full less that credit. Anything due before the change runs first.",
    example: {
      params: { organizationId: ids.organizationId, subscriptionId: ids.subscriptionId },
      body: { items: [{ plan: ids.subscriptionUpgradePlanId, quantity: 1 }], retainRenewalTime: 'retain', proRataCredit: true },
    },
    errors: [
      declined,
      { status: 404, code: 'plan.not_found', when: 'An item names a plan the organization does not have.' },
      conflict,
      advancing,
      { status: 422, code: 'subscription.ended', when: 'The subscription is canceled, completed or incomplete.' },
      { status: 422, code: 'subscription.plan_inactive', when: 'An item names an archived plan.' },
      { status: 422, code: 'subscription.plan_not_recurring', when: 'An item names a plan sold once.' },
      { status: 422, code: 'subscription.mixed_currencies', when: "The plans' currency is not the subscription's." },
      {
        status: 422,
        code: 'subscription.amount_over_limit',
        when: 'One period of the new items costs more than 10,000,000 major units before tax, the most one charge takes.',
      },
      { status: 422, code: 'subscription.mixed_cycles', when: "The plans' cycle is not the subscription's." },
    ],
  },
  listSubscriptionCancellations: {
    description:
      "The organization's cancellations, a page (`limit`, `offset`) at a time, sorted by `createdAt` (default), `updatedAt`, `cancelledAt` or `churnedAt`; filtered by `statuses`, `reasons`, `cancelledBy` (`system`: dunning ran out), a creation range and `showTestData`.",
    example: { params: { organizationId: ids.organizationId }, query: { statuses: 'confirmed,completed', cancelledBy: 'customer', limit: '20' } },
  },
  createSubscriptionCancellation: {
    description:
      'Cancels a subscription, one open (draft or confirmed) cancellation at a time. `churnTimePolicy` `at-next-renewal` (default) ends it when its paid period or trial ends; `now` ends it at once (with `prorated`, the unused part of the paid period is refunded, at most what refunds left of its payment; nothing when the payment is disputed); `cancelAt` at that time. A `draft` changes nothing until it is confirmed. Emits `subscription.cancelled` when the subscription ends.',
    example: {
      params: { organizationId: ids.organizationId },
      body: {
        subscriptionId: ids.subscriptionIdToCancel,
        reason: 'too-expensive',
        description: 'Asked to stop at the end of the month',
        churnTimePolicy: 'at-next-renewal',
        cancelledBy: 'customer',
      },
    },
    errors: [
      subscriptionNotFound,
      {
        status: 409,
        code: 'subscription_cancellation.already_open',
        when: 'The subscription has a draft or confirmed cancellation: update or revoke it (`details.subscriptionCancellationId`).',
      },
      conflict,
      advancing,
      { status: 422, code: 'subscription.ended', when: 'The subscription has ended already.' },
      {
        status: 422,
        code: 'subscription_cancellation.prorated_not_now',
        when: '`prorated` with a cancellation that ends the subscription later (at the next renewal, at `cancelAt`): only one that ends it now refunds the unused time.',
      },
    ],
  },
  getSubscriptionCancellation: {
    description:
      'A cancellation: status (`draft`, `confirmed`, `completed`, `revoked`), reason, who cancelled, its timing (`churnTimePolicy`, `churnedAt`) and, when prorated, the refunded credit line and the invoice it refunds.',
    example: { params: { organizationId: ids.organizationId, subscriptionCancellationId: ids.subscriptionCancellationId } },
  },
  updateSubscriptionCancellation: {
    description:
      'Changes a cancellation that has not taken effect: its details, its timing (`churnedAt` a time of its own, or `churnTimePolicy`), `status: confirmed` to make a draft take effect, or `status: revoked` to let the subscription carry on as before.',
    example: {
      params: { organizationId: ids.organizationId, subscriptionCancellationId: ids.subscriptionCancellationId },
      body: { status: 'confirmed', reason: 'did-not-use', churnTimePolicy: 'at-next-renewal' },
    },
    errors: [
      conflict,
      advancing,
      { status: 422, code: 'subscription_cancellation.closed', when: 'The cancellation is completed or revoked: it can no longer change.' },
      {
        status: 422,
        code: 'subscription_cancellation.prorated_not_now',
        when: 'The change leaves a `prorated` cancellation ending the subscription later than now: only one that ends it now refunds the unused time.',
      },
      { status: 422, code: 'subscription_cancellation.wrong_subscription', when: "`subscriptionId` names another subscription than the cancellation's." },
    ],
  },
  listSubscriptionPauses: {
    description:
      "The organization's pauses, newest first by default, a page (`limit`, `offset`) at a time, optionally within a creation range (`createdFrom`, `createdTo`).",
    example: { params: { organizationId: ids.organizationId }, query: { limit: '20', offset: '0' } },
  },
  createSubscriptionPause: {
    description:
      'Pauses a running subscription (`trial`, `active` or `past-due`) from `effectiveAt` (default now) until `endAt` (absent: until the pause is deleted). While paused nothing is renewed, reminded or retried; the unused part of the paid period is kept as credit, and when the pause ends a new period starts, charged less that credit. One pause at a time.',
    example: {
      params: { organizationId: ids.organizationId },
      body: { subscriptionId: ids.subscriptionIdToPause, pausedBy: 'customer', description: 'Travelling for a month', endAt: '2027-02-04T09:00:00.000Z' },
    },
    errors: [
      subscriptionNotFound,
      {
        status: 409,
        code: 'subscription_pause.already_open',
        when: 'The subscription has a pause already: update or delete it (`details.subscriptionPauseId`).',
      },
      conflict,
      advancing,
      { status: 422, code: 'subscription.not_pausable', when: 'The subscription does not run (pending, paused, ended).' },
      { status: 422, code: 'subscription_pause.ends_before_start', when: '`endAt` is not after `effectiveAt`.' },
    ],
  },
  getSubscriptionPause: {
    description: 'A pause: `pending` until `effectiveAt`, `active` until `endAt`, then `completed`; who paused and why.',
    example: { params: { organizationId: ids.organizationId, subscriptionPauseId: ids.subscriptionPauseId } },
  },
  updateSubscriptionPause: {
    description: 'Changes a pause that has not ended: its details, `effectiveAt` while it is pending, and `endAt` (null: until it is deleted).',
    example: {
      params: { organizationId: ids.organizationId, subscriptionPauseId: ids.subscriptionPauseId },
      body: { pausedBy: 'merchant', description: 'Paused while the account is reviewed', endAt: null },
    },
    errors: [
      conflict,
      advancing,
      { status: 422, code: 'subscription_pause.completed', when: 'The pause has ended: it can no longer change.' },
      { status: 422, code: 'subscription_pause.wrong_subscription', when: "`subscriptionId` names another subscription than the pause's." },
      { status: 422, code: 'subscription_pause.ends_before_start', when: '`endAt` is not after `effectiveAt`.' },
    ],
  },
  deleteSubscriptionPause: {
    description:
      'Ends a pause now and answers it, `completed`: a pending pause never takes effect; an active one resumes the subscription at once with a new period, charged less the credit the pause kept (a declined charge makes it `past-due`, retried as a renewal is).',
    example: { params: { organizationId: ids.organizationId, subscriptionPauseId: ids.subscriptionPauseIdToDelete } },
    errors: [conflict, advancing, { status: 422, code: 'subscription_pause.completed', when: 'The pause has ended already.' }],
  },
  listSubscriptionReactivations: {
    description:
      "The organization's reactivations, newest first by default, a page (`limit`, `offset`) at a time, optionally within a creation range (`createdFrom`, `createdTo`).",
    example: { params: { organizationId: ids.organizationId }, query: { limit: '20', offset: '0' } },
  },
  createSubscriptionReactivation: {
    description:
      "Brings back a `canceled` or `completed` subscription from `effectiveAt` (default now): a new period is charged at once on `paymentInstrumentId` (default: the subscription's), the next renewal at `renewalAt` or a full period on; it emits `subscription.created` again. With `cancellationId` (or on a running subscription with an open cancellation) it revokes that cancellation instead, charging nothing.",
    example: {
      params: { organizationId: ids.organizationId },
      body: { subscriptionId: ids.subscriptionIdToReactivate, description: 'Came back after the summer' },
    },
    errors: [
      declined,
      subscriptionNotFound,
      { status: 404, code: 'subscription_cancellation.not_found', when: '`cancellationId` is not a cancellation of this subscription.' },
      { status: 404, code: 'payment_instrument.not_found', when: "`paymentInstrumentId` is not one of the customer's instruments." },
      conflict,
      advancing,
      {
        status: 422,
        code: 'subscription.not_reactivatable',
        when: 'The subscription runs with no confirmed cancellation (a draft is revoked only when named), or the cancellation named has taken effect or was revoked.',
      },
      { status: 422, code: 'subscription_reactivation.renewal_before_start', when: '`renewalAt` is not after the reactivation takes effect.' },
      {
        status: 422,
        code: 'subscription_reactivation.renewal_too_far',
        when: '`renewalAt` is more than one billing cycle after the reactivation takes effect.',
      },
    ],
  },
  getSubscriptionReactivation: {
    description: 'A reactivation: when it took effect, the next renewal it set, the instrument and transaction of its charge, or the cancellation it revoked.',
    example: { params: { organizationId: ids.organizationId, subscriptionReactivationId: ids.subscriptionReactivationId } },
  },
  getTestClock: {
    description:
      "Sandbox only (not routed on live): the organization's test clock — the time its subscriptions run on (`now`, `offsetSeconds` ahead of real time) and whether an advance is under way (`status`, `advancingTo`). It starts at real time and only moves forward.",
    example: { params: { organizationId: ids.organizationId } },
  },
  advanceTestClock: {
    description:
      "Sandbox only (not routed on live): moves the organization's clock forward to `to`, at most two years at once, running every step of its subscriptions due by then — renewals, retries, reminders, trial ends, scheduled ends — in time order, each at the instant it fell due, with the engine the deployed worker runs, and answers when done (`status` `ready`, `now` at `to`). Steps that take longer than the request may run (about 20 seconds: a daily plan over months, many subscriptions) go on in the background: the answer is the clock `advancing` to `to`, and `GET /test-clock` shows `ready` at `to` once they are done; meanwhile changes of the organization's subscriptions are 409 `test_clock.advancing`. Renewals' transactions carry real time, the subscriptions' records clock time.",
    example: { params: { organizationId: ids.organizationId }, body: { to: '2027-01-05T09:00:00.000Z' } },
    errors: [
      { status: 409, code: 'test_clock.advancing', when: 'Another advance is under way: wait until `GET /test-clock` shows `ready`.' },
      { status: 422, code: 'test_clock.not_forward', when: "`to` is not later than the clock's now." },
      { status: 422, code: 'test_clock.too_far', when: '`to` is more than two years ahead of the clock.' },
    ],
  },
} satisfies ModuleDocs<typeof routes>;
