/**
 * The team area: the people service's members (shared/people/members.service.ts) as a page and a form. The service
 * holds who may change whom and keeps the last owner; a removal also revokes the person's OAuth grants on the merchant
 * (`removeTeamMember`). A refusal is shown on the page with its reason and status.
 */
import * as v from 'valibot';
import { DomainError } from '../../domain/errors.ts';
import type { Merchant, Role } from '../../domain/merchants.ts';
import { addMember, listMembers, updateMemberRole } from '../../people/members.service.ts';
import type { SessionPrincipal } from '../../people/people.service.ts';
import { email as emailSchema } from '../../platform/http/schemas/common.ts';
import type { HttpEvent, Reply } from '../../platform/http/types.ts';
import { managers } from '../../routes/types.ts';
import { areaPath } from '../kit/layout.tsx';
import { pageContext, pageReply, seeOther, withDone } from '../kit/page.ts';
import { removeTeamMember } from './removal.service.ts';
import { TeamPage } from './team.tsx';

const roles: readonly Role[] = ['owner', 'admin', 'member'];
const isRole = (text: string): text is Role => (roles as readonly string[]).includes(text);

interface TeamState {
  done?: string | undefined;
  error?: string | undefined;
  status?: number;
  email?: string | undefined;
  role?: string | undefined;
}

/** The team page: every member, and for owners and admins the forms that manage them. */
export async function teamPage(merchant: Merchant, role: Role, principal: SessionPrincipal, event: HttpEvent, state: TeamState = {}): Promise<Reply> {
  const members = await listMembers(merchant);
  const ctx = pageContext(event, merchant, role);
  return pageReply(
    ctx,
    TeamPage({
      ctx,
      members,
      me: principal.userId,
      canManage: (managers as readonly Role[]).includes(role),
      isOwner: role === 'owner',
      email: state.email ?? '',
      addRole: state.role === 'admin' ? 'admin' : 'member',
      ...(state.done ? { done: state.done } : {}),
      ...(state.error ? { error: state.error } : {}),
    }),
    state.status ?? 200,
  );
}

export interface TeamForm {
  action: 'add' | 'role' | 'remove';
  email?: string | undefined;
  role?: string | undefined;
  userId?: string | undefined;
}

/** The team form (owners and admins; the route holds it): add, change a role, remove. Back to the team page (303), or the page with why not. */
export async function teamFromForm(merchant: Merchant, role: Role, principal: SessionPrincipal, event: HttpEvent, form: TeamForm): Promise<Reply> {
  const again = (error: string, status: number) =>
    teamPage(merchant, role, principal, event, { error, status, ...(form.action === 'add' ? { email: form.email, role: form.role } : {}) });
  const back = (done: string) => seeOther(withDone(areaPath(merchant.id, 'team'), done));
  const wanted = form.role?.trim() ?? '';
  try {
    if (form.action === 'add') {
      const email = v.safeParse(emailSchema, form.email ?? '');
      if (!email.success) return again('Enter the e-mail address the person signs in with, like name@example.com.', 400);
      if (wanted !== 'admin' && wanted !== 'member')
        return again('Choose the role Admin or Member. Make someone an owner by changing their role once they are on the team.', 400);
      await addMember(merchant, { email: email.output, role: wanted });
      return back('added');
    }
    const userId = form.userId?.trim() ?? '';
    if (!userId) return again('Choose the member to change.', 400);
    if (form.action === 'role') {
      if (!isRole(wanted)) return again('Choose the role Owner, Admin or Member.', 400);
      await updateMemberRole(merchant, principal, userId, wanted);
      return back('role_changed');
    }
    await removeTeamMember(merchant, principal, userId);
    // Leaving the team takes away this merchant's pages: back to the merchant switcher.
    return userId === principal.userId ? seeOther('/dashboard') : back('removed');
  } catch (e) {
    if (e instanceof DomainError && e.status < 500) return again(e.message, e.status);
    throw e;
  }
}
