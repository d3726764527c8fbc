/**
 * Organizations on the organization API: registering one (a root merchant, with the calling account linked as
 * its owner), linking more accounts, the owner flags of the links (an organization always keeps one owner
 * account), reading the Organization record, and the onboarding submission.
 *
 * An organization IS a merchant: the same record and UUID; its organization fields are optional fields of the
 * merchant record (`shared/domain/merchants.ts`).
 */
import { randomUUID } from 'node:crypto';
import type { InferOutput } from 'valibot';
import { config } from '../platform/config.ts';
import type { AccountLink } from './account-link.entity.ts';
import { addAccountOrganization, getAccount, getAccountLink, putNewAccountLink, setAccountLinkOwner, stillOwnerOf } from './accounts.repository.ts';
import { cancellationReasons, failedParts, type NamedParts, transactWrite } from '../platform/db/transactions.ts';
import { changeOwnerAccountCount, getMerchant, putNewMerchant, setOrganizationSettings, submitOnboardingOf } from '../people/index.ts';
import type { OnboardingSubmission, OnboardingSubmitter } from './onboarding.entity.ts';
import { putNewOnboarding } from './onboarding.repository.ts';
import { ConflictError, DomainError, ForbiddenError, NotFoundError, UnprocessableError } from '../domain/errors.ts';
import { onboardingStatusOf, type Merchant, type OrganizationBusiness, type OrganizationMember, type OrganizationWebhookMeta } from '../domain/merchants.ts';
import { isUuid } from '../domain/secrets.ts';
import { toMinorUnits } from '../domain/money.ts';
import { accountNotLinked } from '../domain/unknown-ids.ts';
import type { linkOrganizationRequest, onboardingRequest, registerOrganizationRequest, webhookMetadata } from './organizations.schemas.ts';
import { assertDeliverableUrl, WEBHOOK_URL_FORBIDDEN } from '../platform/net/url-guard.ts';
import type { OrgApiKeyPrincipal } from './accounts.service.ts';

type RegistrationInput = InferOutput<typeof registerOrganizationRequest>;
type LinkInput = InferOutput<typeof linkOrganizationRequest>;
type OnboardingInput = InferOutput<typeof onboardingRequest>;
type WebhookMetaInput = InferOutput<typeof webhookMetadata>;

/** The Organization record: the merchant seen through the organization API. Fields with no data yet are null. */
export function organizationView(m: Merchant) {
  const b = m.business ?? null;
  const p = m.member ?? null;
  return {
    id: m.id,
    accountId: m.registeredByAccountId ?? null,
    isBillingConnected: false,
    canDownloadGatewayReports: false,
    isRegistered: Boolean(m.registeredAt),
    registeredAt: m.registeredAt ?? null,
    business: {
      name: b?.name ?? m.name,
      dba: b?.dba ?? null,
      type: b?.type ?? null,
      public: b?.public ?? null,
      address: b?.address ?? null,
      city: b?.city ?? null,
      state: b?.state ?? null,
      zip: b?.zip ?? null,
      phone: b?.phone ?? null,
    },
    member: {
      firstName: p?.firstName ?? null,
      lastName: p?.lastName ?? null,
      dateOfBirth: p?.dateOfBirth ?? null,
      phone: p?.phone ?? null,
      address: p?.address ?? null,
      city: p?.city ?? null,
      state: p?.state ?? null,
      zip: p?.zip ?? null,
    },
    account: {
      bankState: m.payoutMethodAdded ? 'connected' : 'not-connected',
      method: null,
      reportCurrency: m.reportCurrency ?? null,
      minimalPayoutAmount: null,
      refundReserve: null,
      numberLastFour: null,
      payoutSchedule: null,
    },
    createdAt: m.createdAt,
    updatedAt: m.updatedAt,
    deletedAt: null,
    isTaxProviderConnected: false,
    taxProviderKeyLastFour: null,
    defaultGatewayRegion: null,
    defaultGatewaySlug: 'default',
    websiteId: null,
    hostedOnboardingFormStatus: onboardingStatusOf(m),
  };
}

/** Which of the two webhook settings this deployment keeps: `sandboxWebhookMeta` on sandbox, `webhookMeta` on live. */
const deploymentMetaKey = (): 'sandboxWebhookMeta' | 'webhookMeta' => (config.stage === 'sandbox' ? 'sandboxWebhookMeta' : 'webhookMeta');
/** The other deployment's: sent in the same body, checked alike, not kept here. */
const otherMetaKey = (): 'sandboxWebhookMeta' | 'webhookMeta' => (deploymentMetaKey() === 'sandboxWebhookMeta' ? 'webhookMeta' : 'sandboxWebhookMeta');

/**
 * Holds the URL of each webhook setting in the body to the delivery rules (https, public addresses; the same
 * check as webhook destinations): this deployment's, which it keeps, and the other deployment's, which it does
 * not keep, alike, so a body is refused or accepted the same on both. A refusal names the body's field.
 */
async function assertWebhookMetaUrls(input: Partial<Record<'webhookMeta' | 'sandboxWebhookMeta', WebhookMetaInput | null>>): Promise<void> {
  for (const key of [deploymentMetaKey(), otherMetaKey()]) {
    const meta = input[key];
    if (!meta) continue;
    try {
      await assertDeliverableUrl(meta.url, { allowLoopback: config.webhookAllowLoopback });
    } catch (e) {
      if (e instanceof DomainError && e.code === WEBHOOK_URL_FORBIDDEN) {
        throw new UnprocessableError(WEBHOOK_URL_FORBIDDEN, e.message, { field: `${key}.url` });
      }
      throw e;
    }
  }
}

/** This deployment's webhook settings as kept, from the body's (its URL checked by `assertWebhookMetaUrls`). */
function deploymentWebhookMeta(meta: WebhookMetaInput, previous: OrganizationWebhookMeta | null, now: string): OrganizationWebhookMeta {
  return {
    url: meta.url,
    eventTypes: meta.eventTypes,
    taxCategoryId: meta.taxCategoryId,
    accountingCode: meta.accountingCode,
    recognition: meta.recognition ? { debitAccountId: meta.recognition.debitAccountId, creditAccountId: meta.recognition.creditAccountId } : null,
    createdAt: previous?.createdAt ?? now,
    updatedAt: now,
  };
}

/**
 * Register an organization: a new root merchant on this deployment (no parent, no user owner) with the calling
 * account linked as its owner, in one transaction. The website becomes the merchant's `websiteUrl`, the
 * organization name its `name`.
 */
export async function registerOrganization(p: OrgApiKeyPrincipal, input: RegistrationInput, now = new Date().toISOString()) {
  await assertWebhookMetaUrls(input);
  const webhookMeta = deploymentWebhookMeta(input[deploymentMetaKey()], null, now);
  const organization: Merchant = {
    id: randomUUID(),
    name: input.organizationName,
    parentId: null,
    mode: config.mode,
    websiteUrl: input.website,
    ownerUserId: null,
    joinLink: null,
    payoutMethodAdded: false,
    liveAt: null,
    createdAt: now,
    updatedAt: now,
    // The owner count starts at the one link written beside it (a transaction may touch the merchant item once).
    ownerAccountCount: 1,
    registeredAt: now,
    registeredByAccountId: p.accountId,
    country: input.country,
    reportCurrency: input.reportCurrency,
    cfWorkspaceHash: input.cfWorkspaceHash,
    webhookMeta,
    hostedOnboardingFormStatus: 'not-started',
    business: null,
    member: null,
  };
  const caller = await getAccount(p.accountId);
  const parts: NamedParts<'organization' | 'account-link' | 'account'> = [
    ['organization', [putNewMerchant(organization)]],
    ['account-link', [putNewAccountLink({ organizationId: organization.id, accountId: p.accountId, isOwner: true, createdAt: now, updatedAt: now })]],
    ['account', [addAccountOrganization(p.accountId, organization.id, caller?.organizationIds.length ?? 0, now)]],
  ];
  try {
    await transactWrite(parts);
  } catch (e) {
    // Linked elsewhere meanwhile: nothing was written, and a second try reads its list again.
    if (!failedParts(e, parts)?.has('account')) throw e;
    throw linkBusy();
  }
  return organizationView(organization);
}

/** The Organization record of a scope-checked organization. */
export const getOrganization = (organization: Merchant) => organizationView(organization);

const linkBusy = () =>
  new ConflictError('organization.link_busy', 'The account was being linked to another organization at the same moment: send the request again.');

const accountNotOurs = () =>
  new NotFoundError(
    'account.not_found',
    'No account with that id that this account may link: one of this deployment linked to no organization, or only to organizations this account owns.',
  );

/**
 * Link `accountId` to the body's organization. Only an owner account of that organization may (anyone else gets
 * the same 403 as for an organization that does not exist), and only an account that is its own to link: one linked
 * to no organization yet, or only to organizations the caller owns too — another company's account is not found, as
 * one that does not exist (a link it never asked for would change which organization its requests act for). The
 * rule is decided on the account's list of organizations as read, and the link is written on the condition that the
 * list and the caller's ownerships are still what they were read (409 `organization.link_busy` when they changed).
 * `isOwner` true links it as an owner. A workspace hash or this deployment's webhook settings in the body replace
 * the organization's. Linking an account that is linked already is a 409.
 */
export async function linkAccount(p: OrgApiKeyPrincipal, accountId: string, input: LinkInput, now = new Date().toISOString()) {
  const [organization, callerLink, account] = await Promise.all([
    getMerchant(input.organizationId),
    getAccountLink(input.organizationId, p.accountId),
    getAccount(accountId),
  ]);
  if (!organization || organization.mode !== config.mode || !callerLink?.isOwner) throw new ForbiddenError();
  if (!account || account.mode !== config.mode || account.deletedAt) throw accountNotOurs();
  if (account.organizationIds.includes(organization.id)) throw alreadyLinked();
  // The caller must own every organization the account is linked to.
  const others = account.organizationIds;
  const ownership = await Promise.all(others.map((id) => getAccountLink(id, p.accountId)));
  if (!ownership.every((l) => l?.isOwner)) throw accountNotOurs();
  await assertWebhookMetaUrls(input);
  const meta = input[deploymentMetaKey()];
  const settings = {
    ...(input.cfWorkspaceHash !== null ? { cfWorkspaceHash: input.cfWorkspaceHash } : {}),
    ...(meta ? { webhookMeta: deploymentWebhookMeta(meta, organization.webhookMeta ?? null, now) } : {}),
  };
  const isOwner = input.isOwner === true;
  const organizationUpdate = isOwner || Object.keys(settings).length > 0 ? [setOrganizationSettings(organization.id, settings, isOwner, now)] : [];
  const parts: NamedParts<'link' | 'organization' | 'account' | 'ownership'> = [
    ['link', [putNewAccountLink({ organizationId: organization.id, accountId: account.id, isOwner, createdAt: now, updatedAt: now })]],
    ['organization', organizationUpdate],
    ['account', [addAccountOrganization(account.id, organization.id, others.length, now)]],
    ['ownership', [organization.id, ...others].map((id) => stillOwnerOf(id, p.accountId))],
  ];
  try {
    await transactWrite(parts);
  } catch (e) {
    const failed = failedParts(e, parts);
    if (failed?.has('link')) throw alreadyLinked();
    // Linked elsewhere, or an ownership dropped, between the read and the write: nothing was written.
    if (failed?.has('account') || failed?.has('ownership')) throw linkBusy();
    throw e;
  }
  return { organizationId: organization.id };
}

const alreadyLinked = () => new ConflictError('organization.account_already_linked', 'That account is linked to this organization already.');

/**
 * Set the owner flag of `targetAccountId`'s link (the caller's own, or, for owners, another linked account's).
 * Only owners may make an account an owner. The flag and the organization's owner count change in one
 * transaction that is refused when it would leave no owner account (409 `organization.last_owner`), so of two
 * owners dropping their flags at once exactly one succeeds. Setting the flag it already has changes nothing.
 */
export async function setOwnerFlag(organization: Merchant, callerLink: AccountLink, targetAccountId: string, isOwner: boolean, now = new Date().toISOString()) {
  const self = targetAccountId === callerLink.accountId;
  if (!callerLink.isOwner && (!self || isOwner)) {
    throw new ForbiddenError(
      self
        ? 'Only an owner account of this organization can make an account an owner.'
        : "Only an owner account of this organization can change another account's owner flag.",
    );
  }
  const target = self ? callerLink : isUuid(targetAccountId) ? await getAccountLink(organization.id, targetAccountId) : null;
  if (!target) throw accountNotLinked();
  const result = { organizationId: organization.id };
  if (target.isOwner === isOwner) return result;
  const parts: NamedParts<'link' | 'ownerCount'> = [
    ['link', [setAccountLinkOwner(organization.id, target.accountId, !isOwner, isOwner, now)]],
    ['ownerCount', [changeOwnerAccountCount(organization.id, isOwner ? 1 : -1, now)]],
  ];
  try {
    await transactWrite(parts);
  } catch (e) {
    const failed = failedParts(e, parts);
    if (failed?.has('ownerCount')) {
      throw new ConflictError('organization.last_owner', 'An organization keeps at least one owner account; make another account an owner first.');
    }
    if (failed?.has('link')) {
      // The link changed since it was read: done if it now has the flag asked for.
      const fresh = await getAccountLink(organization.id, target.accountId);
      if (!fresh) throw accountNotLinked();
      if (fresh.isOwner === isOwner) return result;
      throw new ConflictError('organization.owner_flag_changed', 'The owner flag was changed by another request; read it and try again.');
    }
    throw e;
  }
  return result;
}

const alreadySubmitted = () => new ConflictError('onboarding.already_submitted', "This organization's onboarding has been submitted already.");

/**
 * Submit the organization's onboarding (owner accounts only): the submission is stored as it was given, and the
 * organization's business, member and report currency are filled from it, in one transaction that moves the
 * hosted onboarding form from `not-started` to `submitted`; a second submission is a 409. Answers the URL of
 * the hosted onboarding form on the dashboard.
 */
export async function submitOnboarding(organization: Merchant, link: AccountLink, input: OnboardingInput, now = new Date().toISOString()) {
  if (!link.isOwner) throw new ForbiddenError('Only an owner account of this organization can submit its onboarding.');
  return recordOnboarding(organization, { submittedByAccountId: link.accountId }, input, now);
}

/**
 * The dashboard's onboarding form: the same submission by an owner of the merchant (the page's route admits owners
 * only), with the same rules and the same once-only condition as the organization API's.
 */
export const submitOnboardingAsOwner = (organization: Merchant, userId: string, input: OnboardingInput, now = new Date().toISOString()) =>
  recordOnboarding(organization, { submittedByUserId: userId }, input, now);

/** The organization's onboarding as it was submitted, or null before. */
export type { OnboardingSubmission } from './onboarding.entity.ts';
export { getOnboarding } from './onboarding.repository.ts';

/** Where the organization's hosted onboarding form is: its dashboard page (the form, then what was submitted). */
export const hostedOnboardingUrl = (organizationId: string) => `${config.dashboardUrl}/dashboard/merchants/${organizationId}/onboarding`;

async function recordOnboarding(organization: Merchant, by: OnboardingSubmitter, input: OnboardingInput, now: string) {
  if (onboardingStatusOf(organization) !== 'not-started') throw alreadySubmitted();
  const { business: b, member: p, account } = input;
  const submission: OnboardingSubmission = {
    organizationId: organization.id,
    ...by,
    business: {
      name: b.name,
      doingBusinessAs: b.doingBusinessAs,
      type: b.type,
      public: b.public,
      category: b.category,
      isStartup: b.isStartup,
      taxId: b.taxId,
      registrationNumber: b.registrationNumber,
      paymentReference: b.paymentReference,
      productAndServiceDescription: b.productAndServiceDescription,
      website: b.website,
      address: b.address,
      city: b.city,
      state: b.state,
      zip: b.zip,
      country: b.country,
      phone: b.phone,
      // The schema has checked that the amount fits the currency.
      salesVolume: toMinorUnits(b.salesVolume, account.reportCurrency)!,
      sellsItemsIllegalInDefaultGateway: b.sellsItemsIllegalInDefaultGateway,
    },
    member: {
      firstName: p.firstName,
      lastName: p.lastName,
      dateOfBirth: p.dateOfBirth,
      phone: p.phone,
      address: p.address,
      city: p.city,
      state: p.state,
      zip: p.zip,
      country: p.country,
    },
    account: { reportCurrency: account.reportCurrency, payoutCurrency: account.payoutCurrency },
    submittedAt: now,
  };
  const business: OrganizationBusiness = {
    name: b.name,
    dba: b.doingBusinessAs,
    type: b.type,
    public: b.public,
    address: b.address,
    city: b.city,
    state: b.state,
    zip: b.zip,
    country: b.country,
    phone: b.phone,
  };
  const member: OrganizationMember = { ...submission.member };
  try {
    await transactWrite([
      ['onboarding', [putNewOnboarding(submission)]],
      ['organization', [submitOnboardingOf(organization.id, { business, member, reportCurrency: account.reportCurrency }, now)]],
    ]);
  } catch (e) {
    if (cancellationReasons(e)?.includes('ConditionalCheckFailed')) throw alreadySubmitted();
    throw e;
  }
  return { hostedUrl: hostedOnboardingUrl(organization.id) };
}
