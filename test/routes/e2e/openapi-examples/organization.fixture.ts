/**
 * The records the request examples of the organization route list (the `organization` list of `shared/routes/docs/index.ts`) name,
 * beside the base fixture's organization and its owner account: more keys of that account, accounts to link,
 * activate and give a new secret, a linked non-owner account, a custom field, products, a plan, a promo code,
 * websites, a payout method and a policy PDF. All are made through the API, the way an integration makes them.
 */
import { call, orgCall, orgPath } from '../../../support/fixtures.ts';
import { tinyPdf } from '../../../support/pdfs.ts';
import { made, type BaseFixture, type FixtureIds } from './fixture.ts';

const A = '/v1/public-api/accounts';

/** The terms PDF the delete example needs to exist. */
const pdf = tinyPdf();

export async function organizationFixture(base: BaseFixture): Promise<FixtureIds> {
  const { createAccount } = await import('../../../../shared/organizations/accounts.service.ts');
  const org = orgPath(base.merchantId);
  const asOwner = (method: string, path: string, body?: unknown) => orgCall(method, path, { fullKey: base.orgApiKey, body });

  // Accounts of this deployment: one to link, one linked as a non-owner, one waiting for activation, one whose
  // secret the example changes.
  const [toLink, linked, toActivate, forNewSecret] = await Promise.all([
    createAccount({ name: 'Acme billing service', mode: 'test' }),
    createAccount({ name: 'Acme reporting service', mode: 'test' }),
    createAccount({ name: 'Acme new backend', mode: 'test' }),
    createAccount({ name: 'Acme ops backend', mode: 'test' }),
  ]);
  // The examples of account routes are sent with the base account's secret: these two accounts take it as theirs
  // (changing a secret needs no activation, so the one to activate stays inactive).
  await Promise.all(
    [toActivate, forNewSecret].map((a) =>
      made(
        'give an account the example secret',
        call('POST', `${A}/${a.accountId}/secret`, { body: { secret: a.secret, newSecret: base.accountSecret } }),
        200,
      ),
    ),
  );
  await made(
    'link an account',
    asOwner('POST', `/v1/public-api/organizations/link?accountId=${linked.accountId}`, { organizationId: base.merchantId, isOwner: false }),
    201,
  );

  // Two more keys of the owner account: one to rotate, one to revoke (the base key stays as it is).
  const issueKey = () => made('issue a key', call('POST', `${A}/${base.accountId}/api-keys`, { body: { secret: base.accountSecret } }), 201);
  const [toRotate, toRevoke] = await Promise.all([issueKey(), issueKey()]);

  // The custom field the product example fills in (optional, with a default: other products get the default).
  await made(
    'define a custom field',
    asOwner('POST', `${org}/custom-fields`, {
      name: 'tier',
      resource: 'products',
      description: 'Service tier',
      typeSchema: { type: 'enum', additionalSchema: { default: 'silver', allowedValues: ['gold', 'silver'] } },
    }),
    201,
  );

  const [product, productToDelete, website, websiteToDelete, payoutMethod, upload] = await Promise.all([
    made('create a product', asOwner('POST', `${org}/products`, { product: { name: 'Team seat', unitLabel: 'seat', type: 'recurring' } }), 201),
    made('create a product to delete', asOwner('POST', `${org}/products`, { product: { name: 'Legacy add-on' } }), 201),
    made('add a website', asOwner('POST', `${org}/websites`, { name: 'Acme shop', url: 'https://shop.acme.example' }), 201),
    made('add a website to delete', asOwner('POST', `${org}/websites`, { name: 'Old landing page', url: 'https://old.acme.example' }), 201),
    made(
      'add a payout method',
      asOwner('POST', `${org}/payout-methods`, {
        type: 'bank-account',
        holderName: 'Acme Software LLC',
        country: 'US',
        currency: 'USD',
        accountNumber: '000123456789',
        routingNumber: '110000000',
      }),
      201,
    ),
    made('ask for a policy upload', asOwner('POST', `${org}/checkout-policies/terms/upload`, { size: pdf.length }), 201),
  ]);
  const put = await fetch(upload.data.uploadUrl, { method: upload.data.method, headers: upload.data.headers, body: pdf });
  if (!put.ok) throw new Error(`organization fixture, upload the terms PDF: ${put.status} ${await put.text()}`);

  const plan = await made(
    'create a plan',
    asOwner('POST', `${org}/plans`, {
      name: 'Team monthly',
      currency: 'USD',
      productId: product.data.id,
      pricing: { price: 12, formula: 'fixed-fee' },
      recurringInterval: { unit: 'month', length: 1 },
    }),
    201,
  );
  const promoCode = await made(
    'create a promo code',
    asOwner('POST', `${org}/promo-codes`, { code: 'ACME-PARTNER-10', percentOff: 10, planIds: [plan.data.id] }),
    201,
  );

  return {
    orgApiKeyId: base.orgApiKeyId,
    orgApiKeyIdToRotate: toRotate.data.id,
    orgApiKeyIdToDelete: toRevoke.data.id,
    accountIdToActivate: toActivate.accountId,
    accountIdForNewSecret: forNewSecret.accountId,
    accountIdToLink: toLink.accountId,
    linkedAccountId: linked.accountId,
    websiteId: website.data.id,
    websiteIdToDelete: websiteToDelete.data.id,
    productId: product.data.id,
    productIdToDelete: productToDelete.data.id,
    planId: plan.data.id,
    promoCodeId: promoCode.data.id,
    payoutMethodIdToDelete: payoutMethod.data.id,
  };
}
