/**
 * The partners area: a root (partner) merchant's sub-merchants through the people service
 * (shared/people/merchants.service.ts): list them, create one (its join link shown once, in the answer to the form),
 * re-mint a join link (shown once the same way), assign a member of the partner's team to one. A sub-merchant is
 * acted on only when it is this merchant's own; on a sub-merchant the page says partners are for root merchants.
 */
import * as v from 'valibot';
import { DomainError, NotFoundError } from '../../domain/errors.ts';
import { isOwnerAttached, type Merchant, type Role } from '../../domain/merchants.ts';
import { activationOf, assignMember, createSubMerchant, getMerchant, remintJoinLink, subMerchantsOf } from '../../people/index.ts';
import { email as emailSchema, httpsUrl } from '../../platform/http/schemas/common.ts';
import type { HttpEvent, Reply } from '../../platform/http/types.ts';
import { managers } from '../../platform/http/route-def.ts';
import { areaPath } from '../kit/layout.tsx';
import { pageContext, pageReply, seeOther, withDone } from '../kit/page.ts';
import { firstSending, unsent } from '../kit/sent-once.ts';
import { PAGE_SIZE, pageNumber } from '../customers/paging.tsx';
import { PartnersPage, type JoinLinkShown, type PartnerForm, type SubMerchantRow } from './partners.tsx';

interface PartnersState {
  /** The page of the sub-merchants list, as the address has it (`?page=`). */
  page?: string | undefined;
  done?: string | undefined;
  error?: string | undefined;
  status?: number;
  form?: PartnerForm;
  joinLink?: JoinLinkShown;
}

/**
 * The partners page: one page of the sub-merchants of a root merchant (newest first, 25 a page), or on a sub-merchant
 * that partners are for root merchants.
 */
export async function partnersPage(merchant: Merchant, role: Role, event: HttpEvent, state: PartnersState = {}): Promise<Reply> {
  const page = pageNumber(state.page);
  const ctx = pageContext(event, merchant, role);
  const children = merchant.parentId
    ? { merchants: [], totalCount: 0 }
    : await subMerchantsOf(merchant.id, { offset: (page - 1) * PAGE_SIZE, limit: PAGE_SIZE });
  const rows: SubMerchantRow[] = children.merchants.map((m) => {
    const steps = activationOf(m).steps;
    return {
      id: m.id,
      name: m.name,
      websiteUrl: m.websiteUrl,
      ownerAttached: isOwnerAttached(m),
      live: m.liveAt !== null,
      stepsDone: steps.filter((s) => s.done).length,
      stepsTotal: steps.length,
      createdAt: m.createdAt,
    };
  });
  return pageReply(
    ctx,
    PartnersPage({
      ctx,
      isRoot: merchant.parentId === null,
      canManage: (managers as readonly Role[]).includes(role),
      subMerchants: rows,
      totalCount: children.totalCount,
      page,
      form: state.form ?? {},
      ...(state.joinLink ? { joinLink: state.joinLink } : {}),
      ...(state.done ? { done: state.done } : {}),
      ...(state.error ? { error: state.error } : {}),
    }),
    state.status ?? 200,
  );
}

export interface PartnersForm {
  action: 'create' | 'remint' | 'assign';
  name?: string | undefined;
  websiteUrl?: string | undefined;
  ownerEmail?: string | undefined;
  subMerchantId?: string | undefined;
  email?: string | undefined;
  role?: string | undefined;
  form_key?: string | undefined;
}

const notOurs = () => new NotFoundError('merchant.not_found', 'This merchant has no sub-merchant of that id. Choose one from the list.');

/** This merchant's own sub-merchant `id` (404 for any other id). */
async function ownSubMerchant(merchant: Merchant, id: string | undefined): Promise<Merchant> {
  const trimmed = id?.trim() ?? '';
  if (!/^[0-9a-f-]{36}$/.test(trimmed)) throw notOurs();
  const sub = await getMerchant(trimmed);
  if (!sub || sub.parentId !== merchant.id) throw notOurs();
  return sub;
}

/**
 * The partners form (owners and admins; the route holds it). `create` and `remint` answer the page with the join
 * link shown once (200); `assign` goes back to the page (303). A refusal shows the page again with why, and a 4xx.
 */
export async function partnersFromForm(merchant: Merchant, role: Role, event: HttpEvent, form: PartnersForm): Promise<Reply> {
  const typed: PartnerForm = {
    name: form.name ?? '',
    websiteUrl: form.websiteUrl ?? '',
    ownerEmail: form.ownerEmail ?? '',
    email: form.email ?? '',
    role: form.role ?? 'member',
    subMerchantId: form.subMerchantId ?? '',
    action: form.action,
  };
  const again = (error: string, status: number) => partnersPage(merchant, role, event, { error, status, form: typed });
  if (merchant.parentId) return again('Partners are for root merchants: a sub-merchant cannot have sub-merchants of its own.', 409);
  try {
    if (form.action === 'create') {
      const name = form.name?.trim() ?? '';
      if (!name) return again('Enter the name of the new merchant.', 400);
      const website = form.websiteUrl?.trim() ?? '';
      const url = website ? v.safeParse(httpsUrl, website) : null;
      if (url && !url.success) return again('The website must be a full address starting with https://, like https://shop.example.', 400);
      const owner = form.ownerEmail?.trim() ?? '';
      const ownerEmail = owner ? v.safeParse(emailSchema, owner) : null;
      if (ownerEmail && !ownerEmail.success) return again("The owner's e-mail must be an address, like name@example.com, or left empty.", 400);
      if (!(await firstSending(merchant, 'sub-merchants', form.form_key))) return partnersPage(merchant, role, event, { done: 'sent_before' });
      const created = await createSubMerchant(merchant.id, {
        name,
        ...(url?.success ? { websiteUrl: url.output } : {}),
        ...(ownerEmail?.success ? { ownerEmail: ownerEmail.output } : {}),
      }).catch(async (e: unknown) => {
        // Refused: nothing was made, so the same form may be sent again as it is.
        await unsent(merchant, 'sub-merchants', form.form_key!);
        throw e;
      });
      return partnersPage(merchant, role, event, {
        done: created.joinLink ? 'created' : 'created_with_owner',
        ...(created.joinLink ? { joinLink: { merchantName: created.name, url: created.joinLink.url, expiresAt: created.joinLink.expiresAt } } : {}),
      });
    }
    const sub = await ownSubMerchant(merchant, form.subMerchantId);
    if (form.action === 'remint') {
      const link = await remintJoinLink(sub);
      return partnersPage(merchant, role, event, { done: 'reminted', joinLink: { merchantName: sub.name, url: link.url, expiresAt: link.expiresAt } });
    }
    const email = v.safeParse(emailSchema, form.email ?? '');
    if (!email.success) return again('Enter the e-mail address the person signs in with, like name@example.com.', 400);
    const wanted = form.role?.trim() || 'member';
    if (wanted !== 'admin' && wanted !== 'member') return again('Choose the role Admin or Member.', 400);
    await assignMember(sub, { email: email.output, role: wanted });
    return seeOther(withDone(areaPath(merchant.id, 'partners'), 'assigned'));
  } catch (e) {
    if (e instanceof DomainError && e.status < 500) return again(e.message, e.status);
    throw e;
  }
}
