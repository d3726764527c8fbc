/** Merchant use cases of the Merchant Public API and the operator CLI. */
import { randomUUID } from 'node:crypto';
import { config } from '../platform/config.ts';
import type { Mode } from '../domain/deployments.ts';
import { putNewApiKey } from './api-keys.repository.ts';
import { cancelledPartItem, failedParts, type NamedParts, transactWrite } from '../platform/db/transactions.ts';
import { getMembership, membershipStands, putNewMembership } from './memberships.repository.ts';
import { attachOwner, checkIsRootOfMode, getMerchant, listChildren, putNewMerchant, replaceJoinLink, setLive, setWebsiteUrl } from './merchants.repository.ts';
import { MerchantEntity } from './merchant.entity.ts';
import { addressHolder, getUserByEmail, putNewUser } from './users.repository.ts';
import type { User } from './user.entity.ts';
import { activationOf, stepsLeftBeforeLive } from './activation.rules.ts';
import { ConflictError, DomainError, ForbiddenError, UnprocessableError } from '../domain/errors.ts';
import { generateJoinToken, joinTokenVerifierOf } from './join-links.rules.ts';
import { isOwnerAttached, isSubMerchant, JOIN_LINK_TTL_DAYS, type Merchant, type Role } from '../domain/merchants.ts';
import { hashPassword } from './passwords.rules.ts';
import { newApiKey } from './api-keys.service.ts';

/** `PublicApiGetMerchantResponse`: the merchant, whether an owner is attached, and activation progress. */
export function merchantView(m: Merchant) {
  return {
    id: m.id,
    name: m.name,
    parentId: m.parentId,
    mode: m.mode,
    websiteUrl: m.websiteUrl,
    ownerAttached: isOwnerAttached(m),
    activation: activationOf(m),
    createdAt: m.createdAt,
    updatedAt: m.updatedAt,
  };
}

type NewMerchantFields = Pick<Merchant, 'id' | 'name' | 'parentId' | 'mode' | 'websiteUrl' | 'ownerUserId' | 'joinLink'>;
const newMerchant = (fields: NewMerchantFields, now: string): Merchant => ({
  payoutMethodAdded: false,
  liveAt: null,
  createdAt: now,
  updatedAt: now,
  ...fields,
});

/** A fresh join link: the URL for the person who will claim the merchant, and the part the merchant stores. */
function mintJoinLink(merchantId: string, now: string) {
  const token = generateJoinToken(merchantId);
  const expiresAt = new Date(Date.parse(now) + JOIN_LINK_TTL_DAYS * 86_400_000).toISOString();
  return {
    stored: { verifier: joinTokenVerifierOf(token), expiresAt },
    response: { url: `${config.dashboardUrl}/join/${token}`, expiresAt },
  };
}

/**
 * Create a sub-merchant beneath the calling key's merchant (the parent comes from the key, never the body).
 * With `ownerEmail`, a person on the parent's team who signs in with that address (and has confirmed it) becomes owner
 * at once (no event): the partner's own people, as the members route assigns. Anyone else — someone who never agreed
 * to work with the partner — is sent the join link and owns it by claiming it; without `ownerEmail` a join link is
 * minted and returned for the future owner.
 *
 * The parent is not read: that it is a root merchant of this mode, and the owner on its team, are conditions of the
 * one transaction that writes the sub-merchant, and only when that fails do the records as they were tell which
 * error to answer.
 */
export async function createSubMerchant(parentId: string, input: { name: string; websiteUrl?: string; ownerEmail?: string }, now = new Date().toISOString()) {
  const owner = input.ownerEmail ? await addressHolder(input.ownerEmail) : null;
  if (input.ownerEmail && !owner?.verified) throw await ownerRefusal(parentId, owner);
  const ownerId = owner?.userId ?? null;
  const id = randomUUID();
  const link = ownerId ? null : mintJoinLink(id, now);
  const merchant = newMerchant(
    {
      id,
      name: input.name,
      parentId,
      mode: config.mode,
      websiteUrl: input.websiteUrl ?? null,
      ownerUserId: ownerId,
      joinLink: link?.stored ?? null,
    },
    now,
  );
  const parts: NamedParts<'parent' | 'ownerOnTeam' | 'merchant' | 'owner'> = [
    ['parent', [checkIsRootOfMode(parentId, config.mode)]],
    ['ownerOnTeam', ownerId ? [membershipStands(parentId, ownerId)] : []],
    ['merchant', [putNewMerchant(merchant)]],
    ['owner', ownerId ? [putNewMembership({ merchantId: id, userId: ownerId, role: 'owner', createdAt: now })] : []],
  ];
  try {
    await transactWrite(parts);
  } catch (e) {
    const failed = failedParts(e, parts);
    if (failed?.has('parent')) throw parentRefusal(MerchantEntity.parseOrNull(cancelledPartItem(e, parts, 'parent'))) ?? new ForbiddenError();
    if (failed?.has('ownerOnTeam')) throw ownerNotOnTeam();
    throw e;
  }
  return { ...merchantView(merchant), joinLink: link?.response ?? null };
}

const ownerNotOnTeam = () =>
  new UnprocessableError(
    'merchant.owner_not_found',
    "No one on your merchant's team signs in with that e-mail; create the merchant without an owner and send its join link instead.",
    { field: 'ownerEmail' },
  );

/**
 * Why `ownerEmail`'s `holder` (null: no one) cannot own a new sub-merchant of `parentId`, read on this error path
 * only: the parent's refusals first, as always; then, for a person on the parent's team who has not confirmed the
 * address, 422 `merchant.owner_unverified`; for anyone else 422 `merchant.owner_not_found`, whether or not the
 * address has an account (a partner learns nothing of addresses outside its team).
 */
async function ownerRefusal(parentId: string, holder: { userId: string } | null): Promise<Error> {
  const [parent, onTeam] = await Promise.all([getMerchant(parentId), holder ? getMembership(parentId, holder.userId) : null]);
  const refusal = parentRefusal(parent);
  if (refusal) return refusal;
  if (!onTeam) return ownerNotOnTeam();
  return new UnprocessableError(
    'merchant.owner_unverified',
    'That person on your team has not confirmed their e-mail address yet; create the merchant without an owner and send its join link instead.',
    { field: 'ownerEmail' },
  );
}

/**
 * Why `parent` may not create merchants: 403 when it does not exist or is of another mode (the key's merchant
 * always exists and has the key's mode, so this is a guard, not a path a client meets), 409 for a sub-merchant;
 * null when it may.
 */
function parentRefusal(parent: Merchant | null): Error | null {
  if (!parent || parent.mode !== config.mode) return new ForbiddenError();
  if (isSubMerchant(parent)) {
    return new ConflictError('merchant.parent_is_sub_merchant', "A sub-merchant cannot create merchants; use the partner merchant's key.");
  }
  return null;
}

export async function updateWebsiteUrl(merchant: Merchant, websiteUrl: string, now = new Date().toISOString()) {
  return merchantView(await setWebsiteUrl(merchant.id, websiteUrl, now));
}

/** `PublicApiMerchantJoinLinkResponse`. Each call invalidates the previous link; 409 once an owner is attached. */
export async function remintJoinLink(merchant: Merchant, now = new Date().toISOString()) {
  const conflict = () =>
    new ConflictError('merchant.owner_already_attached', 'This merchant already has an owner; poll the merchant instead of re-minting its join link.');
  if (isOwnerAttached(merchant)) throw conflict();
  const link = mintJoinLink(merchant.id, now);
  if (!(await replaceJoinLink(merchant.id, link.stored, now))) throw conflict();
  return { merchantId: merchant.id, ...link.response };
}

/**
 * Assign a user of the parent merchant's team to a sub-merchant. If the sub-merchant has no owner yet, the user
 * becomes its owner (no event is sent); otherwise they join with `role` (default member).
 */
export async function assignMember(merchant: Merchant, input: { email: string; role?: Exclude<Role, 'owner'> }, now = new Date().toISOString()) {
  if (!merchant.parentId) {
    throw new UnprocessableError('merchant.not_a_sub_merchant', 'Members can be assigned to sub-merchants only.');
  }
  const user = await getUserByEmail(input.email);
  const inParentTeam = user ? await getMembership(merchant.parentId, user.id) : null;
  if (!user || !inParentTeam) {
    throw new UnprocessableError('member.not_in_parent_team', "No user of the parent merchant's team signs in with that e-mail.", { field: 'email' });
  }
  return assignTo(merchant, user, input.role ?? 'member', now, true);
}

async function assignTo(merchant: Merchant, user: User, role: Exclude<Role, 'owner'>, now: string, mayRetry: boolean) {
  const becomesOwner = !isOwnerAttached(merchant);
  const membership = { merchantId: merchant.id, userId: user.id, role: becomesOwner ? ('owner' as const) : role, createdAt: now };
  const parts: NamedParts<'membership' | 'owner'> = [
    ['membership', [putNewMembership(membership)]],
    ['owner', becomesOwner ? [attachOwner(merchant.id, user.id, now)] : []],
  ];
  try {
    await transactWrite(parts);
  } catch (e) {
    const failed = failedParts(e, parts);
    if (failed?.has('membership')) {
      throw new ConflictError('member.already_assigned', 'That user is already a member of this merchant.');
    }
    if (failed?.has('owner') && mayRetry) {
      // An owner was attached since we read the merchant: assign with the requested role instead.
      const fresh = await getMerchant(merchant.id);
      if (fresh) return assignTo(fresh, user, role, now, false);
    }
    throw e;
  }
  return { merchantId: merchant.id, userId: user.id, email: user.email, role: membership.role, ownerAttached: true };
}

/**
 * Operator action: a root (partner) merchant with its owner and a first API key. The owner user is created
 * when no user has that e-mail yet (its address taken as verified: the operator has it from the partner); an existing
 * user keeps their password, and must have verified the address.
 */
export async function createRootMerchant(input: { name: string; ownerEmail: string; ownerPassword: string; mode: Mode }, now = new Date().toISOString()) {
  const existing = await getUserByEmail(input.ownerEmail);
  if (existing && !existing.emailVerifiedAt) {
    // Anyone can sign up with any address: an account that never proved it is not made an owner by it.
    throw new UnprocessableError(
      'merchant.owner_unverified',
      'The account of that e-mail has not confirmed the address yet: its person confirms it (the link mailed at sign-up, or a password reset) first.',
      { field: 'ownerEmail' },
    );
  }
  const owner: User = existing ?? {
    id: randomUUID(),
    email: input.ownerEmail,
    name: null,
    passwordHash: await hashPassword(input.ownerPassword),
    createdAt: now,
    // The operator opens a partner's merchant for the address the partner agreed to: verified by that agreement.
    emailVerifiedAt: now,
  };
  const merchant = newMerchant(
    { id: randomUUID(), name: input.name, parentId: null, mode: input.mode, websiteUrl: null, ownerUserId: owner.id, joinLink: null },
    now,
  );
  // The platform issues it (the partner's owner did not make it): no person is behind it.
  const { record, apiKey } = newApiKey(merchant.id, 'Default key', input.mode, null, now);
  await transactWrite([
    ['owner', existing ? [] : putNewUser(owner)],
    ['merchant', [putNewMerchant(merchant)]],
    ['membership', [putNewMembership({ merchantId: merchant.id, userId: owner.id, role: 'owner', createdAt: now })]],
    ['api-key', [putNewApiKey(record)]],
  ]);
  return { merchantId: merchant.id, apiKey, apiKeyId: record.id, ownerUserId: owner.id, mode: input.mode };
}

/**
 * A signed-up person opens their own root merchant from the dashboard and becomes its owner, in one transaction.
 * Sandbox only: the sandbox merchant takes test payments at once, and a live merchant is opened by the platform once
 * the sandbox merchant's onboarding is reviewed (403 `merchant.self_serve_sandbox_only` on live).
 */
export async function createOwnMerchant(userId: string, input: { name: string; country: string }, now = new Date().toISOString()) {
  if (config.stage !== 'sandbox') {
    throw new DomainError(
      403,
      'merchant.self_serve_sandbox_only',
      'A live merchant is opened by the platform once its sandbox onboarding is reviewed; create your merchant on the sandbox first.',
    );
  }
  const merchant: Merchant = {
    ...newMerchant({ id: randomUUID(), name: input.name, parentId: null, mode: config.mode, websiteUrl: null, ownerUserId: userId, joinLink: null }, now),
    country: input.country,
  };
  await transactWrite([
    ['merchant', [putNewMerchant(merchant)]],
    ['membership', [putNewMembership({ merchantId: merchant.id, userId, role: 'owner', createdAt: now })]],
  ]);
  return merchantView(merchant);
}

/** One page (`offset`, `limit`) of the partner merchant `parentId`'s sub-merchants, newest first, and how many it has. */
export const subMerchantsOf = (parentId: string, page: { offset: number; limit: number }) => listChildren(parentId, page);

/** How many times going live is tried again after another change of the merchant landed first. */
const GO_LIVE_ATTEMPTS = 3;

/**
 * Take `merchant` live: record its `go_live` activation step, once every other step is done. A merchant already
 * live is answered as it is (idempotent); otherwise 422 `merchant.activation_incomplete` names the steps left
 * (`details.stepsLeft`). The write is conditioned on the merchant being as read and not live yet, so a step undone
 * meanwhile (its payout method deleted, say) is seen: the merchant is read again and the steps checked again.
 */
export async function goLive(merchant: Merchant, now = new Date().toISOString()) {
  let current: Merchant | null = merchant;
  for (let attempt = 1; current; attempt++) {
    if (current.liveAt) return merchantView(current);
    const left = stepsLeftBeforeLive(current);
    if (left.length) {
      throw new UnprocessableError(
        'merchant.activation_incomplete',
        `The merchant can go live once every other activation step is done; still to do: ${left.map((s) => `${s.key} (${s.title})`).join(', ')}.`,
        { stepsLeft: left.map((s) => s.key) },
      );
    }
    const live = await setLive(current.id, current.updatedAt, now);
    if (live) return merchantView(live);
    if (attempt >= GO_LIVE_ATTEMPTS) throw new ConflictError('merchant.changed_concurrently', 'The merchant changed while this request ran; try again.');
    current = await getMerchant(current.id);
  }
  throw new ForbiddenError();
}
