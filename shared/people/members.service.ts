/**
 * A merchant's team on the dashboard: list it, add someone the adding person already works with, change a member's
 * role, remove a member. Everyone else joins by invitation (./invites.service.ts): no one is put on a team, and so
 * possibly made its owner, without having agreed to it.
 *
 * Who may do what (the route table lets only owners and admins add or change; anyone on the team may list, and
 * removal is checked here):
 * - owners may give any role, `owner` included, and remove anyone;
 * - admins may add admins and members, switch a member between `admin` and `member`, and remove admins and
 *   members, but never touch an owner nor make one;
 * - every member may remove themselves (leave the team).
 *
 * The last owner can never be removed or demoted. The rule is held by DynamoDB, not by the read: the membership
 * change is written in one transaction with the merchant's owner count (`changeOwnerMemberCount`), whose
 * condition refuses to go below one owner; a membership change is also conditioned on the role that was read.
 * When a write loses a race, the team is read again and the change re-planned, so of two concurrent requests
 * that would each take away one of two owners, one succeeds and the other gets 409 `member.last_owner`.
 */
import { config } from '../platform/config.ts';
import { pageOf, type PageRequest } from '../platform/http/pagination.ts';
import { cancellationReasons, failedParts, type NamedParts, transactWrite } from '../platform/db/transactions.ts';
import { batchRead } from '../platform/db/batch-read.ts';
import {
  deleteMembership,
  listMembershipsOfMerchant,
  listMembershipsOfUser,
  membershipHasRole,
  membershipRead,
  profilesOf,
  putNewMembership,
  setMembershipRole,
  type MemberProfile,
} from './memberships.repository.ts';
import type { Membership } from './membership.entity.ts';
import { changeOwnerMemberCount, getMerchant, merchantRead } from './merchants.repository.ts';
import { getUserByEmail } from './users.repository.ts';
import type { TransactItem } from '../platform/db/types.ts';
import { ConflictError, ForbiddenError, UnprocessableError } from '../domain/errors.ts';
import type { Merchant, Role } from '../domain/merchants.ts';
import { memberNotFound } from '../domain/unknown-ids.ts';
import type { SessionPrincipal } from './people.service.ts';

/** How many times a change is re-planned after losing a race before the caller is asked to retry. */
const ATTEMPTS = 3;

const memberView = (m: Membership, profile: MemberProfile | undefined) => ({
  userId: m.userId,
  email: profile?.email ?? '',
  name: profile?.name ?? null,
  role: m.role,
  createdAt: m.createdAt,
});

const lastOwner = () => new ConflictError('member.last_owner', "This is the merchant's last owner: make someone else an owner first.");

/** The team, oldest membership first: user id, sign-in e-mail, name, role and when they joined. */
export async function listMembers(merchant: Merchant) {
  const team = await listMembershipsOfMerchant(merchant.id);
  const profiles = await profilesOf(team.map((m) => m.userId));
  return team.map((m) => memberView(m, profiles.get(m.userId)));
}

/** One page of the team, oldest membership first, as `{data, pagination}` (the whole team is read, then paged). */
export const listMembersPage = async (merchant: Merchant, page: PageRequest) => pageOf(await listMembers(merchant), page);

const inviteRequired = () =>
  new UnprocessableError(
    'member.invite_required',
    'Only someone on another of your teams, with a confirmed address, is added at once: invite anyone else (the invitation, mailed to the address, adds them when they accept it).',
    { field: 'email' },
  );

/**
 * Add, as `admin` or `member`, the person who signs in with `input.email`, when the adding person (`principal`)
 * already works with them — they share another team — and their address is confirmed: they agreed to work with the
 * adder when they joined that team. Anyone else, whether or not the address has an account, gets the one answer 422
 * `member.invite_required` (so nothing is learned of strangers' addresses). Owners are made by a role change.
 */
export async function addMember(
  merchant: Merchant,
  principal: SessionPrincipal,
  input: { email: string; role?: Exclude<Role, 'owner'> },
  now = new Date().toISOString(),
) {
  const [user, teams] = await Promise.all([getUserByEmail(input.email), listMembershipsOfUser(principal.userId)]);
  if (!user?.emailVerifiedAt) throw inviteRequired();
  // A team they share: another one, or this one (then the write below answers 409 `member.already_assigned`).
  const theirs = new Set((await listMembershipsOfUser(user.id)).map((m) => m.merchantId));
  if (!teams.some((m) => theirs.has(m.merchantId))) throw inviteRequired();
  const membership: Membership = { merchantId: merchant.id, userId: user.id, role: input.role ?? 'member', createdAt: now };
  const parts: NamedParts<'membership'> = [['membership', [putNewMembership(membership)]]];
  try {
    await transactWrite(parts);
  } catch (e) {
    if (failedParts(e, parts)?.has('membership')) {
      throw new ConflictError('member.already_assigned', 'That user is already a member of this merchant.');
    }
    throw e;
  }
  return memberView(membership, user);
}

type Change = { kind: 'role'; role: Role } | { kind: 'remove' };

/** Whether `caller` may make `change` to `target`; throws 403 when not. */
function authorize(caller: Membership, target: Membership, change: Change): void {
  if (change.kind === 'remove' && caller.userId === target.userId) return;
  if (caller.role === 'owner') return;
  if (caller.role !== 'admin') throw new ForbiddenError('This needs the role owner or admin on this merchant.');
  if (target.role === 'owner') throw new ForbiddenError('Only an owner can change or remove an owner.');
  if (change.kind === 'role' && change.role === 'owner') throw new ForbiddenError('Only an owner can make someone an owner.');
}

/**
 * The transaction that makes `change` to `target`, or null when there is nothing to write. Throws 409
 * `member.last_owner` when `target` is the only owner of the team as read.
 */
function plan(merchant: Merchant, team: Membership[], target: Membership, change: Change): TransactItem[] | null {
  if (change.kind === 'role' && change.role === target.role) return null;
  const losesOwner = target.role === 'owner';
  const gainsOwner = change.kind === 'role' && change.role === 'owner';
  const otherOwners = team.filter((m) => m.role === 'owner' && m.userId !== target.userId);
  if (losesOwner && otherOwners.length === 0) throw lastOwner();
  // The merchant's `ownerUserId` follows its owners: when that owner leaves, the longest-standing other owner takes over.
  const successor = losesOwner && merchant.ownerUserId === target.userId ? otherOwners[0]! : null;
  return [
    change.kind === 'remove' ? deleteMembership(target) : setMembershipRole(target, change.role),
    ...(losesOwner ? [changeOwnerMemberCount(merchant.id, { by: -1, leaving: target.userId, successor: successor?.userId ?? null })] : []),
    ...(successor ? [membershipHasRole(merchant.id, successor.userId, 'owner')] : []),
    ...(gainsOwner ? [changeOwnerMemberCount(merchant.id, { by: 1 })] : []),
  ];
}

/**
 * Read the team, check the caller's rights, write the change in one conditional transaction; when a condition
 * fails (someone changed the team meanwhile), read again and re-plan, so the answer reflects the state that won.
 */
async function changeMember(merchant: Merchant, principal: SessionPrincipal, userId: string, change: Change) {
  let current = merchant;
  for (let attempt = 1; ; attempt++) {
    const team = await listMembershipsOfMerchant(current.id);
    const caller = team.find((m) => m.userId === principal.userId);
    if (!caller) throw new ForbiddenError();
    const target = team.find((m) => m.userId === userId);
    if (!target) throw memberNotFound();
    authorize(caller, target, change);
    const items = plan(current, team, target, change);
    if (!items) return target;
    try {
      await transactWrite([['team-change', items]]);
      return change.kind === 'role' ? { ...target, role: change.role } : null;
    } catch (e) {
      if (!cancellationReasons(e)?.includes('ConditionalCheckFailed')) throw e;
      if (attempt >= ATTEMPTS) throw new ConflictError('member.changed_concurrently', 'The team changed while this request ran; read it again and retry.');
      const fresh = await getMerchant(current.id);
      if (!fresh) throw new ForbiddenError();
      current = fresh;
    }
  }
}

/** Change a member's role; the answer is the member as they are now. */
export async function updateMemberRole(merchant: Merchant, principal: SessionPrincipal, userId: string, role: Role) {
  const [updated, profiles] = await Promise.all([changeMember(merchant, principal, userId, { kind: 'role', role }), profilesOf([userId])]);
  return memberView(updated!, profiles.get(userId));
}

/**
 * Remove a member (or leave the team); their sessions, MCP tokens and OAuth tokens lose access to the merchant at
 * once, since each checks the membership. Revoking their OAuth grants too is the caller's part
 * (`removeTeamMember` of the dashboard): the authorization server depends on this module, not the other way.
 */
export async function removeMember(merchant: Merchant, principal: SessionPrincipal, userId: string): Promise<void> {
  await changeMember(merchant, principal, userId, { kind: 'remove' });
}

/**
 * The merchants of this deployment a person is on the team of, with their role, by name: what the person may act
 * for (the OAuth consent page's choice).
 */
export async function merchantsOfUser(userId: string): Promise<Array<{ merchant: Merchant; role: Role }>> {
  const memberships = await listMembershipsOfUser(userId);
  const merchants = await Promise.all(memberships.map((m) => getMerchant(m.merchantId)));
  return memberships
    .map((m, i) => ({ merchant: merchants[i], role: m.role }))
    .filter((x): x is { merchant: Merchant; role: Role } => x.merchant !== null && x.merchant?.mode === config.mode)
    .sort((a, b) => a.merchant.name.localeCompare(b.merchant.name) || a.merchant.id.localeCompare(b.merchant.id));
}

/** The merchant `merchantId` and `userId`'s membership of it, in ONE `BatchGetItem` (each null when absent). */
export const getMerchantAndMembership = (merchantId: string, userId: string) => batchRead([merchantRead(merchantId), membershipRead(merchantId, userId)]);
