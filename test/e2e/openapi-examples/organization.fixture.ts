/**
 * The records the organization face's request examples (`shared/routes/docs/organization.ts`) act on, made through
 * the API the way an integration makes them: an organization with an owner account and its key, more keys and
 * accounts, a custom field, products, a plan, a promo code, websites, a payout method and a policy PDF.
 */
import type { ExampleIdName } from '../../../shared/routes/docs/example-ids.ts';
import { call, orgCall, organizationAccount, orgPath } from '../fixtures.ts';

const A = '/v1/public-api/accounts';

/** The answer's body when it has `status`, else an error naming the step. */
async function expectStatus(step: string, status: number, answer: Promise<{ status: number; text: string; json: any }>) {
  const res = await answer;
  if (res.status !== status) throw new Error(`organization fixture, ${step}: ${res.status} ${res.text}`);
  return res.json;
}

/** A small PDF's bytes (storage does not look inside; the delete example only needs one to exist). */
const pdf = Buffer.from('%PDF-1.4\n1 0 obj\n<< /Type /Catalog >>\nendobj\ntrailer\n<< /Root 1 0 R >>\n%%EOF\n', 'latin1');

export interface OrganizationFixture {
  /** The real id behind each example id the organization examples use. */
  readonly ids: Partial<Record<ExampleIdName, string>>;
  /** The full key (`Authorization: ApiKey …`) of the organization's owner account, `ids.accountId`. */
  readonly orgApiKey: string;
  /** The secret of each account an `accountSecret` example names in its path, by the account's real id. */
  readonly accountSecrets: Readonly<Record<string, string>>;
}

export async function organizationFixture(): Promise<OrganizationFixture> {
  const { createAccount } = await import('../../../shared/organizations/accounts.service.ts');
  const owner = await organizationAccount('Acme Software');
  const org = orgPath(owner.organizationId);
  const asOwner = (method: string, path: string, body?: unknown) => orgCall(method, path, { fullKey: owner.fullKey, body });

  // Accounts: one to link, one linked as a non-owner, one waiting for activation, one whose secret changes.
  const [toLink, linked, toActivate, forNewSecret] = await Promise.all([
    createAccount({ name: 'Acme billing service', mode: 'test' }),
    createAccount({ name: 'Acme reporting service', mode: 'test' }),
    createAccount({ name: 'Acme new backend', mode: 'test' }),
    createAccount({ name: 'Acme ops backend', mode: 'test' }),
  ]);
  await expectStatus(
    'link an account',
    201,
    asOwner('POST', `/v1/public-api/organizations/link?accountId=${linked.accountId}`, { organizationId: owner.organizationId, isOwner: false }),
  );

  // Two more keys of the owner account: one to rotate, one to revoke.
  const issueKey = () => expectStatus('issue a key', 201, call('POST', `${A}/${owner.accountId}/api-keys`, { body: { secret: owner.secret } }));
  const [toRotate, toRevoke] = await Promise.all([issueKey(), issueKey()]);

  // The custom field the product example fills in, before any product (products made later get its default).
  await expectStatus(
    'define a custom field',
    201,
    asOwner('POST', `${org}/custom-fields`, {
      name: 'tier',
      resource: 'products',
      description: 'Service tier',
      typeSchema: { type: 'enum', additionalSchema: { default: 'silver', allowedValues: ['gold', 'silver'] } },
    }),
  );

  const [product, productToDelete, website, websiteToDelete, payoutMethod, upload] = await Promise.all([
    expectStatus('create a product', 201, asOwner('POST', `${org}/products`, { product: { name: 'Team seat', unitLabel: 'seat', type: 'recurring' } })),
    expectStatus('create a product to delete', 201, asOwner('POST', `${org}/products`, { product: { name: 'Legacy add-on' } })),
    expectStatus('add a website', 201, asOwner('POST', `${org}/websites`, { name: 'Acme shop', url: 'https://shop.acme.example' })),
    expectStatus('add a website to delete', 201, asOwner('POST', `${org}/websites`, { name: 'Old landing page', url: 'https://old.acme.example' })),
    expectStatus(
      'add a payout method',
      201,
      asOwner('POST', `${org}/payout-methods`, {
        type: 'bank-account',
        holderName: 'Acme Software LLC',
        country: 'US',
        currency: 'USD',
        accountNumber: '000123456789',
        routingNumber: '110000000',
      }),
    ),
    expectStatus('ask for a policy upload', 201, asOwner('POST', `${org}/checkout-policies/terms/upload`, { size: pdf.length })),
  ]);
  const put = await fetch(upload.data.uploadUrl, { method: upload.data.method, headers: upload.data.headers, body: pdf });
  if (!put.ok) throw new Error(`organization fixture, upload the terms PDF: ${put.status} ${await put.text()}`);

  const plan = await expectStatus(
    'create a plan',
    201,
    asOwner('POST', `${org}/plans`, {
      name: 'Team monthly',
      currency: 'USD',
      productId: product.data.id,
      pricing: { price: 12, formula: 'fixed-fee' },
      recurringInterval: { unit: 'month', length: 1 },
    }),
  );
  const promoCode = await expectStatus(
    'create a promo code',
    201,
    asOwner('POST', `${org}/promo-codes`, { code: 'WELCOME10', percentOff: 10, planIds: [plan.data.id] }),
  );

  return {
    ids: {
      organizationId: owner.organizationId,
      accountId: owner.accountId,
      apiKeyId: owner.apiKeyId,
      apiKeyIdToRotate: toRotate.data.id,
      apiKeyIdToDelete: toRevoke.data.id,
      accountIdToLink: toLink.accountId,
      linkedAccountId: linked.accountId,
      accountIdToActivate: toActivate.accountId,
      accountIdForNewSecret: forNewSecret.accountId,
      websiteId: website.data.id,
      websiteIdToDelete: websiteToDelete.data.id,
      productId: product.data.id,
      productIdToDelete: productToDelete.data.id,
      planId: plan.data.id,
      promoCodeId: promoCode.data.id,
      payoutMethodIdToDelete: payoutMethod.data.id,
    },
    orgApiKey: owner.fullKey,
    accountSecrets: { [owner.accountId]: owner.secret, [toActivate.accountId]: toActivate.secret, [forNewSecret.accountId]: forNewSecret.secret },
  };
}
