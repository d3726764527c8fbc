/**
 * The examples and error entries the API reference's entries share (`<module>/routes.docs.ts`): request bodies,
 * refusals that several operations document alike. Read only by the OpenAPI document's builder.
 */
import type { DocumentedError } from './route-docs.ts';
import { exampleIds } from './example-ids.ts';

export const merchantBillingAddress = { country: 'US', state: 'CA', postalCode: '94103' };

/**
 * The account's secret in the account routes' bodies (64 hex digits, as the operator hands it over): the document
 * builder adds no credential to a body, so the examples carry it; the example test sends the fixture account's.
 */
export const secret = '6f2eb341bd88ce10f69e612da555fc346a047aacca34fc52abc7d6c4ae062330';

export const secretThrottled = {
  status: 429,
  code: 'auth.too_many_attempts',
  when: 'More than 10 wrong secrets for this account, or 50 from your address, within 15 minutes; wait for `Retry-After` seconds.',
};
export const notActivated = { status: 409, code: 'account.not_activated', when: 'The account has not been activated yet: activate it first.' };
export const notOwner = (what: string) => ({
  status: 403,
  code: 'forbidden',
  when: `The calling account is linked to the organization but is not an owner, and ${what}.`,
});
export const lastOwner = {
  status: 409,
  code: 'organization.last_owner',
  when: 'Dropping the flag would leave the organization without an owner account: make another account an owner first.',
};
export const ownerFlagChanged = {
  status: 409,
  code: 'organization.owner_flag_changed',
  when: 'Another request changed the same owner flag at the same moment; read it and try again.',
};
export const customFieldInvalid = (resource: string) => ({
  status: 400,
  code: 'custom_field.invalid',
  when: `A \`customFields\` value names no field defined for ${resource}, breaks its field's type, or a required field without a default is left out.`,
});
export const planInvalidForProduct = {
  status: 400,
  code: 'plan.invalid_for_product',
  when: 'The plan does not fit its product: `recurringInterval` missing on a recurring product or given on a one-time one, a `trial` on a one-time product, `isTrialOnly` without a trial, an anchor method that does not fit the unit, or a `productOptions` key the product does not have.',
};
export const promoPlanNotFound = { status: 422, code: 'promo_code.plan_not_found', when: '`planIds` names a plan that is not one of the organization’s.' };
export const promoCurrencyMismatch = {
  status: 422,
  code: 'promo_code.currency_mismatch',
  when: 'An amount-off code lists a plan priced in another currency than the code’s.',
};
export const promoNothingToCharge = {
  status: 422,
  code: 'promo_code.nothing_to_charge',
  when: 'A 100 % code lists a plan sold once without a setup fee: it would take every purchase of it to nothing, which checkout cannot take.',
};
export const payoutMethodsBusy = {
  status: 409,
  code: 'payout_method.conflict',
  when: "Other changes to the organization's payout methods kept landing at the same moment; send the request again.",
};
export const webhookUrlForbidden = {
  status: 422,
  code: 'webhook.url_forbidden',
  when: '`webhookMeta.url` or `sandboxWebhookMeta.url` is not an https URL on a public address (both are checked on every deployment); `details` names the field.',
};

/** The card refusals of every way to tokenize; `field` in `details` names the body's field, the number is never repeated. */
export const instrumentCardRefusals = (prefix = ''): DocumentedError[] => [
  {
    status: 400,
    code: 'card.invalid_number',
    when: `\`${prefix}primaryAccountNumber\` is not a card number: not 12–19 digits (spaces and dashes allowed), no known brand, the wrong length for its brand, or the Luhn check fails.`,
  },
  {
    status: 400,
    code: 'card.invalid_expiry',
    when: `\`${prefix}expirationMonth\` is not 1–12, or \`${prefix}expirationYear\` is not four digits or more than 20 years ahead.`,
  },
  { status: 400, code: 'card.expired', when: 'The card is past the last day of its expiry month (UTC).' },
  {
    status: 400,
    code: 'card.invalid_cvc',
    when: `\`${prefix}cardVerificationValue\` is not the brand's length: 4 digits for American Express, 3 for the others.`,
  },
  {
    status: 422,
    code: 'card.brand_not_supported',
    when: "A valid card of a brand the deployment's processor does not take (see `GET …/payment-methods`).",
  },
];

export const processorUnavailable: DocumentedError = {
  status: 503,
  code: 'payments.processor_unavailable',
  when: 'The deployment has no payment processor configured (live, for now): nothing is written.',
};

/** The refusals of refunding a transaction, whoever asks (the API, or the sandbox processor on its own). */
export const refundRefusals: DocumentedError[] = [
  {
    status: 409,
    code: 'refund.conflict',
    when: 'Other refunds of the transaction kept this one from being recorded for 6 s; nothing was written, send the request again.',
  },
  {
    status: 422,
    code: 'refund.transaction_not_refundable',
    when: 'The transaction is not `completed` or `partially-refunded` (`details` gives its status).',
  },
  {
    status: 422,
    code: 'refund.amount_exceeds_refundable',
    when: 'The amount is more than is left to refund, refunds still pending counted (`details.refundableAmount`), or nothing is left.',
  },
  { status: 422, code: 'refund.invalid_amount', when: "The amount has more decimals than the transaction's currency allows." },
  { status: 422, code: 'refund.transaction_disputed', when: 'The transaction has a dispute: its money is held for the dispute.' },
];

export const urlForbidden: DocumentedError = {
  status: 422,
  code: 'webhook.url_forbidden',
  when: 'The `url` is not HTTPS, names a port below 1024 other than 443, has credentials in it, or its host does not resolve to public addresses only.',
};

export const declined = { status: 402, code: 'payment.declined', when: 'The card was declined (`details.declineCode`): nothing changed.' } as const;
export const conflict = {
  status: 409,
  code: 'subscription.conflict',
  when: 'Another change of the subscription (a request, a renewal, a test clock advance) won the race: nothing was done, nothing charged or refunded. Read it again and retry.',
} as const;
export const advancing = {
  status: 409,
  code: 'test_clock.advancing',
  when: 'A test clock advance is under way: retry once `GET /test-clock` shows `ready`.',
} as const;
export const subscriptionNotFound = { status: 404, code: 'subscription.not_found', when: 'No subscription of the organization has `subscriptionId`.' } as const;

/** The buyer's billing address of the examples: it decides the tax (California's statewide 7.25 %). */
export const billingAddress = { country: 'US', state: 'CA', postalCode: '94105' };

/** A promo code of the examples' merchant: 15 % off its plans. */
export const examplePromoCode = 'SPRING15';

export const taxUnavailable = {
  status: 422,
  code: 'checkout.tax_unavailable',
  when: "No tax rate is known for the billing address, so the platform does not sell to it: a country it does not sell to (`country_not_sold`; the hosted checkout does not offer it), a code that names no country (`country_unknown`), a US or Canadian address without its state (`state_required`) or with a state that is not one of the country's (`state_unknown`), or an instant before the rate table (`before_table`); `details.reason` says which. A US state without sales tax is not refused: it is taxed at 0 with `reason: no_sales_tax`. Nothing is charged.",
} as const;

/** A live merchant's payment before it went live (`refuseUnlessLive`). */
export const notLive = {
  status: 403,
  code: 'merchant.not_live',
  when: 'On live, the merchant has not gone live yet: it completes its going-live checklist before it takes real payments.',
} as const;

/** A confirm of a checkout already confirmed with another card or other details (its session and card are its key). */
export const confirmKeyReused = {
  status: 422,
  code: 'idempotency.key_reused',
  when: 'The checkout was already confirmed with this card and other details: send that same confirm again to get its result.',
} as const;

export const promoRefusals = [
  { status: 422, code: 'checkout.promo_code_not_found', when: 'The merchant has no promo code of that text (compared case-insensitively).' },
  { status: 422, code: 'checkout.promo_code_inactive', when: 'The merchant deactivated the code.' },
  { status: 422, code: 'checkout.promo_code_expired', when: 'The code is past its `expiresAt`.' },
  { status: 422, code: 'checkout.promo_code_exhausted', when: 'The code has been redeemed `maxRedemptions` times.' },
  { status: 422, code: 'checkout.promo_code_wrong_plan', when: 'The code lists the plans it applies to, and this plan is not one of them.' },
  { status: 422, code: 'checkout.promo_code_wrong_currency', when: "The code takes an amount off in another currency than the plan's." },
] as const;

export const cardRefusals = [
  {
    status: 402,
    code: 'payment.declined',
    when: 'The card was declined: `message` and `details.declineCode` give the reason. The session or order stays open for another card (a fresh token).',
  },
  {
    status: 404,
    code: 'card_token.not_found',
    when: "The token is not one of the merchant's card tokens (tokens are made by the hosted fields mounted with this checkout's client token).",
  },
  { status: 409, code: 'card_token.already_used', when: 'The token paid (or tried to pay) another payment already: tokenize the card again.' },
  { status: 422, code: 'card_token.expired', when: 'The token is older than its 15 minutes: tokenize the card again.' },
  { status: 422, code: 'checkout.amount_over_limit', when: 'What is due today is more than 100000 major units of the currency.' },
  { status: 502, code: 'payment.processor_error', when: 'The processor refused the payment for a reason of its own; nothing was charged.' },
  {
    status: 502,
    code: 'payment.processor_unreachable',
    when: 'The processor did not answer, so the outcome is not known yet: send the same confirm again, which finishes this payment and never charges twice.',
  },
] as const;

/**
 * The people of the examples: the one who signs up, the one who signs in (an existing user), the one added to a
 * team (someone the examples' owner works with on another team, not on this one yet) and the one invited.
 */
export const examplePeople = {
  signUp: { email: 'grace@example.com', password: 'correct horse battery staple', name: 'Grace Hopper' },
  signIn: { email: 'margaret@example.com', password: 'a long secret passphrase' },
  newMember: { email: 'alan@example.com' },
  invited: { email: 'mary@example.com' },
} as const;

/** The hosted checkout pages' shell, abbreviated (the style block and the page's sections left out). */
export const pageShell = [
  '<!doctype html>',
  '<html lang="en">',
  '<head>',
  '<meta charset="utf-8">',
  '<meta name="viewport" content="width=device-width, initial-scale=1">',
  '<meta name="robots" content="noindex">',
  '<title>Checkout</title>',
  '<style>…</style>',
  '</head>',
  '<body>',
  '<main id="main" data-state="loading" aria-busy="true">',
  '…',
  '</main>',
  '<script src="/checkout/assets/checkout.js"></script>',
  '</body>',
  '</html>',
  '',
].join('\n');

/** A 16 × 16 PNG of the brand colour #1A56DB, in base64 (the logo of the examples). */
export const logoPng = 'iVBORw0KGgoAAAANSUhEUgAAABAAAAAQCAIAAACQkWg2AAAAFklEQVR4nGOQCrtNEmIY1TCqYfhqAAA3tksQ+xTo4AAAAABJRU5ErkJggg==';

export const teamRace = {
  status: 409,
  code: 'member.changed_concurrently',
  when: 'The change kept losing races with other changes of the team: read the team again and retry.',
} as const;

export const lastOwnerMember = {
  status: 409,
  code: 'member.last_owner',
  when: 'The change would leave the merchant without an owner (the only owner demoted or removed): make someone else an owner first.',
} as const;

export const ownerOnly = {
  status: 403,
  code: 'forbidden',
  when: 'An admin tried to change or remove an owner, or to make someone an owner: only owners may.',
} as const;

/** The redirect URI of the examples' client: a loopback address, as a native MCP client registers. */
export const redirectUri = 'http://127.0.0.1:8765/callback';

/** The authorization request of the examples: a PKCE S256 challenge, a state the client checks on return. */
export const authorizationRequest = {
  response_type: 'code',
  client_id: exampleIds.oauthClientId,
  redirect_uri: redirectUri,
  code_challenge: 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM',
  code_challenge_method: 'S256',
  state: 'af0ifjsldkj',
  scope: 'merchant:read product:read',
};
