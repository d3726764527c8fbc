/**
 * The bound of every path parameter (`shared/platform/http/path-bounds.ts`) against the id formats it stands for, and
 * the route table against the bounds: every parameter has one, and every route whose path holds an id its scope
 * check does not read says what it answers for an id that names nothing (`unknownId`).
 */
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { isCardTokenId } from '../../../shared/customers/card-tokens.repository.ts';
import { isAccountWebhookDestinationId } from '../../../shared/webhooks/org-webhooks.repository.ts';
import { isPaymentInstrumentId } from '../../../shared/customers/payment-instruments.repository.ts';
import { isWebsiteId } from '../../../shared/organizations/websites.repository.ts';
import { isApiKeyId } from '../../../shared/people/api-keys.rules.ts';
import { isMcpTokenId } from '../../../shared/agents/mcp-tokens.rules.ts';
import { isDocsPageName } from '../../../shared/docs/docs-site.ts';
import { isLegacyReceiptId } from '../../../shared/checkout/checkout.rules.ts';
import { isCustomerId } from '../../../shared/customers/customers.rules.ts';
import { isDisputeId } from '../../../shared/payments/disputes.rules.ts';
import { generateJoinToken, merchantIdOfJoinToken } from '../../../shared/people/join-links.rules.ts';
import { generateInviteToken, invitationOfToken, inviteIdOf } from '../../../shared/people/invites.rules.ts';
import { isOrderId } from '../../../shared/checkout/orders.rules.ts';
import { isPayoutMethodId, isWithdrawalId } from '../../../shared/money/payouts.rules.ts';
import { PLAN_ID_PATTERN, PRODUCT_ID_PATTERN } from '../../../shared/catalog/plans.rules.ts';
import { isPolicyType, policyTypes } from '../../../shared/domain/policies.ts';
import { IMAGE_ID_PATTERN, IMAGE_UPLOAD_ID_PATTERN } from '../../../shared/domain/images.ts';
import { isUuid } from '../../../shared/domain/secrets.ts';
import { isTransactionId } from '../../../shared/payments/transactions.rules.ts';
import { isInvoiceId } from '../../../shared/invoicing/port.ts';
import { routeList } from '../../../shared/routes/index.ts';
import { pathParameterMaxLength, pathParametersOf, type PathParameterName } from '../../../shared/platform/http/path-bounds.ts';
import { PROMO_CODE_ID_PATTERN } from '../../../shared/catalog/plans.rules.ts';
import { isDestinationId } from '../../../shared/webhooks/webhooks.service.ts';
import { isEventId } from '../../../shared/webhooks/events.rules.ts';
import { scopeParameters } from '../../support/route-ids.ts';

type Check = (id: string) => boolean;
const matches =
  (pattern: RegExp): Check =>
  (id) =>
    pattern.test(id);
const uuid = randomUUID();
const uuidV7 = '01931b2e-7c4d-7e61-9f0a-0123456789ab';

/** For each parameter, each kind of id it may hold: the check the code applies, and the longest id it accepts. */
const formats: Record<PathParameterName, Array<[Check, string]>> = {
  merchantId: [[isUuid, uuid]],
  organizationId: [[isUuid, uuid]],
  accountId: [[isUuid, uuid]],
  userId: [[isUuid, uuid]],
  apiKeyId: [[isUuid, uuid]],
  transactionId: [[isTransactionId, uuidV7]],
  subscriptionId: [[isUuid, uuidV7]],
  subscriptionCancellationId: [[isUuid, uuidV7]],
  subscriptionPauseId: [[isUuid, uuidV7]],
  subscriptionReactivationId: [[isUuid, uuidV7]],
  id: [
    [isApiKeyId, `ak_${'a'.repeat(24)}`],
    [isCustomerId, `cus_${'a'.repeat(32)}`],
    [isInvoiceId, `inv_${'a'.repeat(32)}`],
    [isDestinationId, `wh_${'a'.repeat(24)}`],
  ],
  planId: [[matches(PLAN_ID_PATTERN), `plan_${'a'.repeat(32)}`]],
  productId: [[matches(PRODUCT_ID_PATTERN), `prod_${'a'.repeat(32)}`]],
  promoCodeId: [[matches(PROMO_CODE_ID_PATTERN), `promo_${'a'.repeat(32)}`]],
  websiteId: [[isWebsiteId, `web_${'a'.repeat(32)}`]],
  orderId: [[isOrderId, `ord_${'a'.repeat(32)}`]],
  customerId: [[isCustomerId, `cus_${'a'.repeat(32)}`]],
  customerInvoiceId: [[isInvoiceId, `inv_${'a'.repeat(32)}`]],
  invoiceId: [[isInvoiceId, `inv_${'a'.repeat(32)}`]],
  paymentInstrumentId: [[isPaymentInstrumentId, `inst_${'a'.repeat(32)}`]],
  tokenId: [[isCardTokenId, `tok_${'a'.repeat(24)}`]],
  payoutMethodId: [[isPayoutMethodId, `pom_${'a'.repeat(32)}`]],
  withdrawalId: [[isWithdrawalId, `po_${'a'.repeat(32)}`]],
  eventId: [[isEventId, `evt_${'a'.repeat(32)}`]],
  webhookDestinationId: [[isAccountWebhookDestinationId, `whd_${'a'.repeat(32)}`]],
  disputeId: [[isDisputeId, 'a'.repeat(64)]],
  receiptId: [
    [isTransactionId, uuidV7],
    [isLegacyReceiptId, `pay_${'a'.repeat(64)}`],
  ],
  policyType: policyTypes.map((type): [Check, string] => [isPolicyType, type]),
  token: [
    [(t) => merchantIdOfJoinToken(t) !== null, generateJoinToken(uuid)],
    [(t) => invitationOfToken(t) !== null, generateInviteToken(uuid, inviteIdOf(uuid, 'someone@example.com'))],
  ],
  imageId: [[matches(IMAGE_ID_PATTERN), `img_${'a'.repeat(32)}`]],
  uploadId: [[matches(IMAGE_UPLOAD_ID_PATTERN), `upl_${'a'.repeat(32)}`]],
  mcpTokenId: [[isMcpTokenId, `mcp_${'a'.repeat(24)}`]],
  page: [[isDocsPageName, 'a'.repeat(64)]],
};

describe('the bound of each path parameter', () => {
  it.each(Object.entries(formats))('{%s} is the length of its longest id', (name, kinds) => {
    for (const [check, longest] of kinds) {
      expect(check(longest), longest).toBe(true);
      // One more character of the same kind is no id any more.
      expect(check(longest + longest.at(-1)), `${longest}+1`).toBe(false);
    }
    expect(pathParameterMaxLength[name as PathParameterName]).toBe(Math.max(...kinds.map(([, longest]) => longest.length)));
  });
});

describe('the route table against the bounds', () => {
  it('has a bound for every path parameter of every route, and none for a parameter no route has', () => {
    const used = new Set(routeList.flatMap((r) => pathParametersOf(r.path)));
    expect([...used].filter((name) => !(name in pathParameterMaxLength))).toEqual([]);
    expect(Object.keys(pathParameterMaxLength).filter((name) => !used.has(name))).toEqual([]);
  });

  it('says for every route with an id its scope check does not read what the route answers for one that names nothing', () => {
    const undeclared = routeList.filter((r) => !r.unknownId && pathParametersOf(r.path).some((name) => !scopeParameters(r).includes(name)));
    expect(undeclared.map((r) => r.name)).toEqual([]);
    // An undeclared route's ids are all read by its scope check, whose answer to one that names nothing is 403.
    for (const r of routeList.filter((route) => route.unknownId)) {
      for (const name of pathParametersOf(r.path)) {
        expect(r.unknownId!(name).status, r.name).toBeGreaterThanOrEqual(400);
        expect(r.unknownId!(name).status, r.name).toBeLessThan(500);
      }
    }
  });
});
