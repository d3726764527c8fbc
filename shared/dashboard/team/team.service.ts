/**
 * The team area: the people service's members (shared/people/members.service.ts) and invitations
 * (shared/people/invites.service.ts) as a page and a form. The service holds who may change whom and keeps the last
 * owner; a removal (and leaving) also revokes the person's OAuth grants on the merchant (`removeTeamMember`). Every
 * action of the form but leaving is for owners and admins, checked here (the route lets any member post, to leave).
 * A refusal is shown on the page with its reason and status.
 */
import * as v from 'valibot';
import { ConflictError, DomainError, ForbiddenError } from '../../domain/errors.ts';
import type { Merchant, Role } from '../../domain/merchants.ts';
import { inviteToTeam, pendingInvites, revokeInvite, addMember, listMembers, updateMemberRole, type SessionPrincipal } from '../../people/index.ts';
import { email as emailSchema } from '../../platform/http/schemas/common.ts';
import type { HttpEvent, Reply } from '../../platform/http/types.ts';
import { managers } from '../../platform/http/route-def.ts';
import { areaPath } from '../kit/layout.tsx';
import { pageContext, pageReply, seeOther, withDone } from '../kit/page.ts';
import { firstSending, unsent } from '../kit/sent-once.ts';
import { removeTeamMember } from './removal.service.ts';
import { TeamPage } from './team.tsx';

const roles: readonly Role[] = ['owner', 'admin', 'member'];
const isRole = (text: string): text is Role => (roles as readonly string[]).includes(text);

interface TeamState {
  done?: string | undefined;
  error?: string | undefined;
  status?: number;
  /** Headers the answer carries (a refusal's `Retry-After`). */
  headers?: Readonly<Record<string, string>> | undefined;
  email?: string | undefined;
  role?: string | undefined;
}

const isManager = (role: Role) => (managers as readonly Role[]).includes(role);

/** The team page: every member, for owners and admins the pending invitations and the forms that manage them, and the way to leave. */
export async function teamPage(merchant: Merchant, role: Role, principal: SessionPrincipal, event: HttpEvent, state: TeamState = {}): Promise<Reply> {
  const canManage = isManager(role);
  const [members, invites] = await Promise.all([listMembers(merchant), canManage ? pendingInvites(merchant) : []]);
  const ctx = pageContext(event, merchant, role);
  return pageReply(
    ctx,
    TeamPage({
      ctx,
      members,
      invites,
      me: principal.userId,
      canManage,
      isOwner: role === 'owner',
      email: state.email ?? '',
      addRole: state.role === 'admin' ? 'admin' : 'member',
      ...(state.done ? { done: state.done } : {}),
      ...(state.error ? { error: state.error } : {}),
    }),
    state.status ?? 200,
    undefined,
    { ...state.headers },
  );
}

export interface TeamForm {
  action: 'invite' | 'revoke' | 'add' | 'role' | 'remove' | 'leave';
  email?: string | undefined;
  role?: string | undefined;
  userId?: string | undefined;
  inviteId?: string | undefined;
  form_key?: string | undefined;
}

/** Where a person who left a team lands: the merchant switcher, which says so. */
const LEFT_PATH = withDone('/dashboard', 'left');

/**
 * The team form. Owners and admins: invite an e-mail address, revoke an invitation, add a registered user, change a
 * role, remove a member. Any member: leave the team (not its last owner). Back to the team page (303), the switcher
 * after leaving, or the page with why not.
 */
export async function teamFromForm(merchant: Merchant, role: Role, principal: SessionPrincipal, event: HttpEvent, form: TeamForm): Promise<Reply> {
  // The same refusal the route table gives a route with roles: a 403 page.
  if (form.action !== 'leave' && !isManager(role)) throw new ForbiddenError(`This needs the role ${managers.join(' or ')} on this merchant.`);
  const typed = form.action === 'add' || form.action === 'invite';
  const again = (error: string, status: number, headers?: Readonly<Record<string, string>>) =>
    teamPage(merchant, role, principal, event, { error, status, headers, ...(typed ? { email: form.email, role: form.role } : {}) });
  const back = (done: string) => seeOther(withDone(areaPath(merchant.id, 'team'), done));
  const wanted = form.role?.trim() ?? '';
  try {
    if (typed) {
      const email = v.safeParse(emailSchema, form.email ?? '');
      if (!email.success) {
        return again(
          form.action === 'invite'
            ? 'Enter the e-mail address to send the invitation to, like name@example.com.'
            : 'Enter the e-mail address the person signs in with, like name@example.com.',
          400,
        );
      }
      if (wanted !== 'admin' && wanted !== 'member')
        return again('Choose the role Admin or Member. Make someone an owner by changing their role once they are on the team.', 400);
      // One invitation (one mail, one link) or one addition however often the form is sent: a double click, a reload.
      if (!(await firstSending(merchant, 'team', form.form_key))) return back('sent_before');
      try {
        if (form.action === 'invite') {
          await inviteToTeam(merchant, principal, { email: email.output, role: wanted });
          return back('invited');
        }
        await addMember(merchant, principal, { email: email.output, role: wanted });
        return back('added');
      } catch (e) {
        // Refused: nothing was made, so the same form may be sent again as it is.
        await unsent(merchant, 'team', form.form_key!);
        throw e;
      }
    }
    if (form.action === 'revoke') {
      await revokeInvite(merchant, form.inviteId?.trim() ?? '');
      return back('revoked');
    }
    if (form.action === 'leave') return await leave(merchant, principal);
    const userId = form.userId?.trim() ?? '';
    if (!userId) return again('Choose the member to change.', 400);
    if (form.action === 'role') {
      if (!isRole(wanted)) return again('Choose the role Owner, Admin or Member.', 400);
      await updateMemberRole(merchant, principal, userId, wanted);
      return back('role_changed');
    }
    await removeTeamMember(merchant, principal, userId);
    // Leaving the team takes away this merchant's pages: back to the merchant switcher.
    return userId === principal.userId ? seeOther(LEFT_PATH) : back('removed');
  } catch (e) {
    // A refusal, or an invitation kept whose mail could not be sent (503): the page again, saying why, with the
    // answer's headers (`Retry-After`).
    if (e instanceof DomainError) return again(e.message, e.status, e.headers);
    throw e;
  }
}

/** Leave the team: the switcher, which says so. The last owner stays, with a reason that speaks to them. */
async function leave(merchant: Merchant, principal: SessionPrincipal): Promise<Reply> {
  try {
    await removeTeamMember(merchant, principal, principal.userId);
  } catch (e) {
    if (e instanceof DomainError && e.code === 'member.last_owner') {
      throw new ConflictError('member.last_owner', "You are this merchant's last owner, so you cannot leave its team: make someone else an owner first.");
    }
    throw e;
  }
  return seeOther(LEFT_PATH);
}
