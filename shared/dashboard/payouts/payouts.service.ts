/**
 * A merchant's payouts page: its balances, payout methods and one page of its payouts read at once, and the page's
 * two forms. A payout request carries the idempotency key the form was shown with (a fresh random key each time the
 * page is rendered), given to the payout service as its key: the same form sent twice pays once, and the second
 * answer is the first one's. A refusal is shown on the page again with the reason, and with a fresh key (a refused
 * request made nothing).
 */
import { randomUUID } from 'node:crypto';
import { isUuid } from '../../domain/secrets.ts';
import { countryCodes } from '../../domain/countries.ts';
import { BadRequestError, DomainError } from '../../domain/errors.ts';
import type { Merchant, Role } from '../../domain/merchants.ts';
import { isCurrency, toMinorUnits } from '../../domain/money.ts';
import {
  balancesOf,
  addPayoutMethod,
  checkAccountNumber,
  listMerchantPayoutMethods,
  merchantWithdrawals,
  removePayoutMethod,
  requestMerchantPayout,
} from '../../money/index.ts';
import type { HttpEvent, Reply } from '../../platform/http/types.ts';
import { managers } from '../../platform/http/route-def.ts';
import { amountFieldHint } from '../kit/format.tsx';
import { areaPath } from '../kit/layout.tsx';
import { pageContext, pageReply, seeOther, withDone } from '../kit/page.ts';
import { firstSending, unsent } from '../kit/sent-once.ts';
import { pageNumber } from '../customers/paging.tsx';
import { type PayoutForm, PayoutsPage } from './payouts.tsx';

/** Payouts per page of the history. */
export const HISTORY_PAGE = 20;
/** How long a payout request waits for another request with the same key (a double submit) to finish. */
const WAIT_FOR_TWIN_MS = 5_000;

export async function payoutsPage(
  merchant: Merchant,
  role: Role,
  event: HttpEvent,
  query: { done?: string | undefined; page?: string | undefined },
  failed?: { error: string; status: number; form: PayoutForm },
): Promise<Reply> {
  const page = pageNumber(query.page);
  const [balances, methods, history] = await Promise.all([
    balancesOf(merchant),
    listMerchantPayoutMethods(merchant),
    merchantWithdrawals(merchant.id, { offset: (page - 1) * HISTORY_PAGE, limit: HISTORY_PAGE }),
  ]);
  const ctx = pageContext(event, merchant, role);
  return pageReply(
    ctx,
    PayoutsPage({
      ctx,
      balances: balances.map((b) => ({ currency: b.currency, ...b.balances })),
      methods: methods.data,
      withdrawals: history.withdrawals,
      page,
      pages: Math.max(1, Math.ceil(history.totalCount / HISTORY_PAGE)),
      canManage: (managers as readonly Role[]).includes(role),
      idempotencyKey: randomUUID(),
      ...(query.done ? { done: query.done } : {}),
      ...(failed ? { error: failed.error, form: failed.form } : {}),
    }),
    failed?.status ?? 200,
  );
}

const invalid = (message: string) => new BadRequestError('request.validation_failed', message);
const trimmed = (s: string | undefined) => (s ?? '').trim();

/** The add-method form as the payout-method service takes it, or a 400 saying what to fix. */
function newMethodOf(form: PayoutForm) {
  const holderName = trimmed(form.holder_name);
  const country = trimmed(form.country).toUpperCase();
  const currency = trimmed(form.currency).toUpperCase();
  const accountNumber = trimmed(form.account_number);
  const routingNumber = trimmed(form.routing_number).replace(/[\s-]/g, '').toUpperCase();
  if (!holderName || holderName.length > 100) throw invalid('Enter the account holder’s name (at most 100 characters).');
  if (!countryCodes.includes(country)) throw invalid('Enter the bank account’s country as a two-letter code, like DE or US.');
  if (!isCurrency(currency)) throw invalid('Enter the currency the account is paid in, like EUR or USD.');
  if (!/^[A-Za-z0-9 -]{4,42}$/.test(accountNumber)) throw invalid('Enter the account number: an IBAN, or a local number of 4 to 17 digits.');
  if (routingNumber && !/^[A-Z0-9]{3,20}$/.test(routingNumber)) throw invalid('The routing number must be 3 to 20 letters or digits.');
  return { type: 'bank-account' as const, holderName, country, currency, accountNumber, routingNumber: routingNumber || null };
}

/** The payout request form as the payout service takes it, or a 400 saying what to fix. */
function payoutOf(form: PayoutForm) {
  const payoutMethodId = trimmed(form.payout_method_id);
  const currency = trimmed(form.currency).toUpperCase();
  const amountText = trimmed(form.amount);
  if (!payoutMethodId) throw invalid('Choose the payout method to pay to.');
  if (!isCurrency(currency)) throw invalid('Choose the currency of the payout.');
  const amount = Number(amountText);
  // A comma is refused, never dropped: "1,5" (a decimal comma) must not become 15.
  if (!/^\d{1,12}(\.\d{1,3})?$/.test(amountText)) throw invalid(amountFieldHint(currency));
  if (!(amount > 0)) throw invalid('Enter an amount more than 0.');
  if (toMinorUnits(amount, currency) === null) throw invalid(`The amount has more decimals than ${currency} allows.`);
  return { payoutMethodId, currency, amount };
}

/** A payout request; while another request with the same key (the same form sent twice) runs, waits for its answer. */
async function requestOnce(merchant: Merchant, form: PayoutForm): Promise<void> {
  const key = form.idempotency_key;
  // The key the page was shown with: a UUID the page made (anything else was not this page's).
  if (!key || !isUuid(key)) throw invalid('This form has no payout key. Reload the page and send it again.');
  const payout = payoutOf(form);
  const until = Date.now() + WAIT_FOR_TWIN_MS;
  for (;;) {
    try {
      await requestMerchantPayout(merchant, payout, key);
      return;
    } catch (e) {
      if (!(e instanceof DomainError && e.code === 'idempotency.in_progress') || Date.now() > until) throw e;
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  }
}

/** The page's forms (owners and admins: the route's roles hold it): add or remove a payout method, or request a payout. */
export async function payoutsForm(
  merchant: Merchant,
  role: Role,
  form: PayoutForm & { action: 'add_method' | 'remove_method' | 'request_payout' },
  event: HttpEvent,
): Promise<Reply> {
  const here = areaPath(merchant.id, 'payouts');
  try {
    if (form.action === 'add_method') {
      // One method however often the form is sent (a double click, a reload): its key claimed once the form is found
      // right; refused after it, the same form may be sent again.
      const method = newMethodOf(form);
      checkAccountNumber(method);
      if (!(await firstSending(merchant, 'payout-methods', form.form_key))) return seeOther(withDone(here, 'method_sent_before'));
      await addPayoutMethod(merchant, method).catch(async (e: unknown) => {
        await unsent(merchant, 'payout-methods', form.form_key!);
        throw e;
      });
      return seeOther(withDone(here, 'method_added'));
    }
    if (form.action === 'remove_method') {
      await removePayoutMethod(merchant, form.payout_method_id ?? '');
      return seeOther(withDone(here, 'method_removed'));
    }
    await requestOnce(merchant, form);
    return seeOther(withDone(here, 'payout_requested'));
  } catch (e) {
    if (!(e instanceof DomainError) || e.status >= 500) throw e;
    const error = e.message.replace(/^accountNumber: /, 'Account number: ').replace(/^routingNumber: /, 'Routing number: ');
    return payoutsPage(merchant, role, event, {}, { error, status: e.status, form: { ...form, action: form.action } });
  }
}
