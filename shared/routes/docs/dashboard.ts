/**
 * The API reference's entries for the dashboard back end (`shared/routes/dashboard.ts`): people and sessions, the
 * team, webhook destinations, refunds, checkout customization and payouts (session auth), and the hosted checkout
 * pages.
 */
import type { dashboardRoutes } from '../dashboard.ts';
import type { FaceDocs } from './types.ts';
import { exampleIds as ids } from './example-ids.ts';

/**
 * The people of the examples: the one who signs up, the one who signs in (an existing user) and the one added to a
 * team (an existing user who is not on it yet).
 */
export const examplePeople = {
  signUp: { email: 'grace@example.com', password: 'correct horse battery staple', name: 'Grace Hopper' },
  signIn: { email: 'margaret@example.com', password: 'a long secret passphrase' },
  newMember: { email: 'alan@example.com' },
} as const;

/** The hosted checkout pages' shell, abbreviated (the style block and the page's sections left out). */
const pageShell = [
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
const logoPng = 'iVBORw0KGgoAAAANSUhEUgAAABAAAAAQCAIAAACQkWg2AAAAFklEQVR4nGOQCrtNEmIY1TCqYfhqAAA3tksQ+xTo4AAAAABJRU5ErkJggg==';

const teamRace = {
  status: 409,
  code: 'member.changed_concurrently',
  when: 'The change kept losing races with other changes of the team: read the team again and retry.',
} as const;

const lastOwner = {
  status: 409,
  code: 'member.last_owner',
  when: 'The change would leave the merchant without an owner (the only owner demoted or removed): make someone else an owner first.',
} as const;

const ownerOnly = {
  status: 403,
  code: 'forbidden',
  when: 'An admin tried to change or remove an owner, or to make someone an owner: only owners may.',
} as const;

export const dashboardDocs = {
  signUp: {
    description:
      'Creates a person who can sign in to the dashboard: an e-mail (one user per e-mail) and a password of 12 to 128 characters, stored as a scrypt hash. A user belongs to no merchant until they claim a join link or an owner or admin adds them to a team. No session is started: sign in next.',
    example: { body: examplePeople.signUp },
    errors: [{ status: 409, code: 'user.email_taken', when: 'A user with that e-mail exists already: sign in instead.' }],
  },
  signIn: {
    description:
      'Starts a 12-hour session: the answer carries the session `token` (send it as `Authorization: Bearer <token>`) and sets the `__Host-mor_session` cookie (`HttpOnly`, `Secure`, `SameSite=Lax`) the dashboard pages use. Attempts are throttled per e-mail (10 failures per 15 minutes) and per source address (50); a successful sign-in gives its slots back, so only failures count.',
    example: { body: examplePeople.signIn },
    errors: [
      { status: 401, code: 'auth.invalid_credentials', when: 'The e-mail or the password is wrong (both answered alike, in the same time).' },
      {
        status: 429,
        code: 'auth.too_many_attempts',
        when: 'Too many failed attempts for this e-mail or from this address in the current 15-minute window, whatever the password; `Retry-After` says when to try again.',
      },
    ],
  },
  signOut: {
    description:
      'Ends the session the request was made with (its token stops working at once) and clears the session cookie. Other sessions of the same person stay signed in.',
    example: { headers: { Authorization: `Bearer ${ids.sessionTokenToEnd}` } },
  },
  me: {
    description: 'The signed-in person (id, e-mail, name) and the merchants they are a member of, each with their role (`owner`, `admin` or `member`).',
    example: {},
  },
  claimJoinLink: {
    description:
      "Makes the signed-in person the owner of a merchant through its latest join link (`/join/<token>`, minted by the partner's key when the merchant is created or later). The owner, the owner membership and the `merchant.owner_attached` event are written in one transaction: of concurrent claims exactly one wins. Every link that cannot be claimed (made up, replaced by a newer one, expired, used, or for a merchant that has an owner) gets the same 404 `join_link.invalid`.",
    example: { params: { token: ids.joinLinkToken } },
  },
  createWebhookDestination: {
    description:
      "Adds a receiver of the merchant's events (owners and admins). The URL must be `https` on port 443 or 1024 and up, and its host must resolve to public addresses only, checked now and again on every delivery; a local stack started with `WEBHOOK_ALLOW_LOOPBACK=1` also takes `http://127.0.0.1:<port>` receivers, as in this example. `eventTypes` are catalog types, `headers` up to 20 custom headers sent with each delivery (shown later by name only), and `receiveSubMerchantEvents` (a partner merchant only) adds its sub-merchants' events. The 64-hex signing `secret` is in this answer only.",
    example: {
      params: { merchantId: ids.merchantId },
      body: {
        url: 'http://127.0.0.1:8080/webhooks/mor',
        eventTypes: ['payment.completed', 'payment.refunded'],
        headers: { 'X-Receiver-Token': 'rcv_2f9d1c7a' },
      },
    },
    errors: [
      {
        status: 422,
        code: 'webhook.url_forbidden',
        when: 'The URL is not https, has userinfo or a well-known port other than 443, or its host is or resolves to a loopback, private, link-local or other non-public address (or does not resolve).',
      },
      { status: 422, code: 'webhook.sub_merchant_events_not_allowed', when: '`receiveSubMerchantEvents` was asked for on a sub-merchant.' },
    ],
  },
  listWebhookDestinations: {
    description:
      "The merchant's webhook destinations, a page at a time (`page` from 1, `limit` 1–100, default 20), each with its event types, custom header names and circuit state; never a signing secret or a header value. Any member may read them.",
    example: { params: { merchantId: ids.merchantId }, query: { page: '1', limit: '20' } },
  },
  getWebhookDestination: {
    description:
      'One destination: its URL, event types, custom header names and circuit (`closed`, or `open` after 5 consecutive 5xx answers, timeouts or network errors, when events are skipped). Any member may read it; never its secret.',
    example: { params: { merchantId: ids.merchantId, id: ids.merchantWebhookDestinationId } },
  },
  deleteWebhookDestination: {
    description: 'Deletes the destination (owners and admins): no event is sent to it any more, and its signing secret is no longer valid for anything.',
    example: { params: { merchantId: ids.merchantId, id: ids.merchantWebhookDestinationIdToDelete } },
  },
  testWebhookDestination: {
    description:
      'Sends a signed `{"type":"webhook.test","createdAt":…}` POST to the destination (15-second timeout) and answers with what the receiver said: `delivered` (a 2xx), its `httpStatus`, or the `error` (`timeout`, a network error). An unreachable receiver is still a 200 of this route, with `delivered: false`. It writes no delivery record and does not touch the circuit. Owners and admins.',
    example: { params: { merchantId: ids.merchantId, id: ids.merchantWebhookDestinationId } },
  },
  resetWebhookCircuit: {
    description:
      "Closes the destination's circuit (owners and admins) so events flow to it again; the events skipped while it was open are not replayed. On a closed circuit it changes nothing.",
    example: { params: { merchantId: ids.merchantId, id: ids.merchantWebhookDestinationId } },
  },
  listWebhookDeliveries: {
    description:
      "The destination's delivery history, newest first, a page at a time (`page`, `limit` 1–100): each attempt's event, `status` (`sending`, `succeeded`, `failed`, `skipped`), the receiver's `httpStatus`, the `error`, `durationMs` and the start of the receiver's answer (`responseSnippet`). Filters: `status`, `eventType` and `httpStatus` (100–599). Any member may read it.",
    example: {
      params: { merchantId: ids.merchantId, id: ids.merchantWebhookDestinationId },
      query: { status: 'failed', eventType: 'payment.completed', page: '1', limit: '20' },
    },
  },
  listMembers: {
    description:
      "The merchant's team, oldest membership first, a page at a time (`page` from 1, `limit` 1–100): each member's user id, sign-in e-mail, name, role and since when. Any member may read it.",
    example: { params: { merchantId: ids.merchantId }, query: { page: '1', limit: '20' } },
  },
  addMember: {
    description:
      'Adds an existing user, found by the e-mail they sign in with, as `admin` or `member` (default `member`); owners and admins may. Owners are never added: an owner is made by a role change. The new member reaches the merchant with their next request.',
    example: { params: { merchantId: ids.merchantId }, body: { email: examplePeople.newMember.email, role: 'admin' } },
    errors: [
      { status: 422, code: 'member.user_not_found', when: 'No user signs in with that e-mail: they must sign up first.' },
      { status: 409, code: 'member.already_assigned', when: 'That user is on the team already.' },
    ],
  },
  updateMember: {
    description:
      "Changes a member's role. Owners may give any role, `owner` included; admins may switch members between `admin` and `member` (themselves too) but never change an owner nor make one. The same role again changes nothing. The merchant always keeps an owner: DynamoDB holds the rule, so concurrent demotions of the last two owners cannot both succeed.",
    example: { params: { merchantId: ids.merchantId, userId: ids.teamMemberUserId }, body: { role: 'member' } },
    errors: [ownerOnly, lastOwner, teamRace],
  },
  removeMember: {
    description:
      "Removes a member from the team (owners, admins for admins and members) or, with their own user id, lets any member leave. Access ends with the next request, and the OAuth grants the person gave agents on this merchant are revoked: their refresh tokens are refused. When the owner of record leaves, the longest-standing other owner takes over; removal from a partner's team leaves the sub-merchants they were assigned to alone.",
    example: { params: { merchantId: ids.merchantId, userId: ids.teamMemberUserIdToDelete } },
    errors: [ownerOnly, lastOwner, teamRace],
  },
  createDashboardRefund: {
    description:
      "Refunds part of a completed or partially refunded payment (`amount` in major units of its currency, at most its decimals), or all that is left without one; owners and admins. With an `Idempotency-Key` a repeat replays the first answer (`idempotent-replayed: true`) and never refunds twice. The refund's `source` is `dashboard`, so no webhook is sent for it. A refund the processor refuses is answered as a refund with status `failed`.",
    example: {
      params: { merchantId: ids.merchantId, transactionId: ids.refundableTransactionId },
      headers: { 'Idempotency-Key': 'refund-2026-0042' },
      body: { amount: 5, reason: 'Returned unopened' },
    },
    errors: [
      {
        status: 422,
        code: 'refund.transaction_not_refundable',
        when: 'The payment is not completed or partially refunded (declined, pending, refunded in full); `details.status` says which.',
      },
      {
        status: 422,
        code: 'refund.amount_exceeds_refundable',
        when: 'The amount is more than what is left to refund (refunds being processed count); `details.refundableAmount` says how much is.',
      },
      { status: 422, code: 'refund.invalid_amount', when: "The amount is not above 0, or has more decimals than the payment's currency." },
      { status: 422, code: 'refund.transaction_disputed', when: 'The payment is disputed: its money is held for the dispute.' },
      { status: 422, code: 'idempotency.key_reused', when: 'The Idempotency-Key was used before for another refund request.' },
      { status: 409, code: 'idempotency.in_progress', when: 'A request with the same Idempotency-Key is being processed: retry shortly.' },
      {
        status: 409,
        code: 'refund.conflict',
        when: 'Other refunds of the payment were being recorded at the same time; nothing was refunded: send the request again.',
      },
      {
        status: 502,
        code: 'refund.processor_unreachable',
        when: 'The processor did not answer, so the outcome is not known yet: retry with the same Idempotency-Key to finish it.',
      },
      { status: 503, code: 'payments.processor_unavailable', when: 'This deployment has no payment processor yet; nothing was read or written.' },
    ],
  },
  checkoutPlanPage: {
    description:
      'The hosted checkout page of a plan, on the platform\'s own origin: an HTML shell (no table read, cacheable for 5 minutes) whose script reads the plan through the buyer checkout API and lets the buyer see the price and tax, apply a promo code, start a session and pay in the hosted card fields. Any id gets the shell; an unknown plan shows "Checkout not found". Its Content Security Policy allows nothing from another origin, and the page cannot be framed. The example below is abbreviated.',
    example: { params: { planId: ids.checkoutPlanId } },
    response: pageShell,
  },
  checkoutOrderPage: {
    description:
      'The hosted checkout page of an order: an HTML shell (no table read, cacheable for 5 minutes) whose script reads the order through the buyer checkout API, shows its lines, tax and the seller\'s policy PDFs, and lets the buyer pay in the hosted card fields; a paid order shows "Already paid". Any id gets the shell. Its Content Security Policy allows nothing from another origin, and the page cannot be framed. The example below is abbreviated.',
    example: { params: { orderId: ids.checkoutOrderId } },
    response: pageShell,
  },
  checkoutPageScript: {
    description:
      "The one script of the hosted checkout pages (bundled and minified): it reads the plan or order id from the page's path, calls the buyer checkout API on the same origin, mounts the hosted fields and sends only card tokens to the confirm. It logs and stores nothing. The example below is abbreviated.",
    example: {},
    response: '"use strict";(()=>{var me="/api/v1/checkout",…})();\n',
  },
  getCheckoutCustomization: {
    description:
      "How the merchant's hosted checkout looks: the display name, the brand colour (buttons and links), the accent colour (the header's rule, the focus ring) and the logo (`url`, `contentType`, `size`), each null until set. Any member may read it.",
    example: { params: { merchantId: ids.merchantId } },
  },
  updateCheckoutCustomization: {
    description:
      'Sets the fields given (owners and admins): `displayName` (trimmed, 1–100 characters) and the colours as `#RRGGBB` (stored in upper case); null clears a field, one left out keeps its value, and at least one is needed. The pay button has white text on the brand colour, so the brand colour needs a contrast ratio of at least 4.5:1 against white (WCAG AA): `#767676` is the lightest grey that passes.',
    example: { params: { merchantId: ids.merchantId }, body: { displayName: 'Lumen Studio', brandColor: '#1A56DB', accentColor: '#F59E0B' } },
    errors: [
      {
        status: 422,
        code: 'checkout_customization.insufficient_contrast',
        when: 'The brand colour has a contrast ratio under 4.5:1 against white; `details.ratio` gives it. Nothing changes.',
      },
    ],
  },
  setCheckoutLogo: {
    description:
      "Sets the checkout logo (owners and admins): `data` is the file in base64 (standard alphabet, padded), a PNG, JPEG or WebP of at most 512 KiB, checked by its file signature, which must match `contentType`. SVG is refused (it can carry script). Each upload gets a new image id and URL (served by `GET /api/v1/checkout/merchants/{merchantId}/images/{imageId}`, cacheable for good), and the previous logo's file is deleted.",
    example: { params: { merchantId: ids.merchantId }, body: { contentType: 'image/png', data: logoPng } },
    errors: [
      {
        status: 422,
        code: 'checkout_customization.unsupported_logo_type',
        when: '`contentType` is not `image/png`, `image/jpeg` or `image/webp` (SVG included).',
      },
      { status: 400, code: 'checkout_customization.invalid_logo_data', when: '`data` is empty or not base64 (standard alphabet, padded).' },
      { status: 422, code: 'checkout_customization.logo_too_large', when: 'The decoded file is over 512 KiB (524,288 bytes).' },
      {
        status: 422,
        code: 'checkout_customization.logo_not_an_image',
        when: 'The bytes are not a PNG, JPEG or WebP file, or not of the declared `contentType`.',
      },
    ],
  },
  createDashboardPolicyUpload: {
    description:
      "A presigned PUT URL, valid 15 minutes, for the merchant's PDF of `policyType` (`terms`, `privacy`, `return-policy` or `eula`) of exactly `size` bytes (at most 10 MiB), as the checkout settings page asks for it before its script sends the file straight to storage (owners and admins). `contentType` must be `application/pdf`. PUT the file to `uploadUrl` with exactly the `headers` answered: the content type and length are signed, so storage refuses anything else. A new upload replaces the previous PDF of that type; the organization API's `POST …/checkout-policies/{policyType}/upload` makes the same URL.",
    example: { params: { merchantId: ids.merchantId, policyType: 'terms' }, body: { contentType: 'application/pdf', size: 48213 } },
    // Written: the local stack's answer points at its own storage server.
    response: {
      policyType: 'terms',
      uploadUrl: `https://mor-sandbox-data-policybucket5f3a9c1e-1k2l3m4n5o6p.s3.us-east-1.amazonaws.com/policies/${ids.merchantId}/terms.pdf?X-Amz-Algorithm=AWS4-HMAC-SHA256&X-Amz-Content-Sha256=UNSIGNED-PAYLOAD&X-Amz-Credential=ASIAQ3EGV7ZK5EXAMPLE%2F20261126%2Fus-east-1%2Fs3%2Faws4_request&X-Amz-Date=20261126T210236Z&X-Amz-Expires=900&X-Amz-Security-Token=IQoJb3JpZ2luX2VjEXAMPLE&X-Amz-Signature=758bc5723be8b3bf691ccde86b6e42cc17e34ab398ac239de8a5fd87e9bc4811&X-Amz-SignedHeaders=content-length%3Bcontent-type%3Bhost`,
      method: 'PUT',
      headers: { 'content-type': 'application/pdf', 'content-length': '48213' },
      maxBytes: 10485760,
      expiresAt: '2026-11-26T21:17:36.000Z',
    },
    errors: [
      {
        status: 422,
        code: 'checkout_policies.unsupported_document_type',
        when: '`contentType` is not `application/pdf`: a policy document is a PDF.',
      },
      { status: 400, code: 'checkout_policies.unknown_policy_type', when: '`policyType` is not `terms`, `privacy`, `return-policy` or `eula`.' },
    ],
  },
  listDashboardPayouts: {
    description:
      "The merchant's payouts (withdrawals to its payout methods), newest first, a page at a time (`page` from 1, `limit` 1–100), each with its amount, currency, the payout method's last four digits and its status (`pending`, `in_transit`, `paid`, `failed` or `canceled`). Any member may read them; payouts are requested through the merchant API or the dashboard's Payouts page.",
    example: { params: { merchantId: ids.merchantId }, query: { page: '1', limit: '20' } },
  },
  getDashboardPayout: {
    description: "One payout of the merchant with its status and the bank's reference once sent (`externalWithdrawalId`). Any member may read it.",
    example: { params: { merchantId: ids.merchantId, withdrawalId: ids.payoutId } },
  },
} satisfies FaceDocs<typeof dashboardRoutes>;
