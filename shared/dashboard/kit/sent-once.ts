/**
 * A create form's one sending (its `form_key`, made with the page: `SentOnce`): the first request with a key claims it
 * (an idempotency record of the merchant's operation), and the same form sent again — a reload of the page that showed
 * what it made, a second click — finds it claimed and makes nothing.
 */
import { BadRequestError } from '../../domain/errors.ts';
import type { Merchant } from '../../domain/merchants.ts';
import { claimOnce, forgetOnce } from '../../platform/db/idempotency.ts';

/**
 * True the first time `formKey` is sent for `operation`, false after. A form without its key is refused: the page it
 * came from is out of date.
 */
export async function firstSending(merchant: Merchant, operation: string, formKey: string | undefined): Promise<boolean> {
  if (!formKey) throw new BadRequestError('request.form_key', 'This form is out of date: reload the page and send it again.', { field: 'form_key' });
  return claimOnce(merchant.id, `dashboard-${operation}`, formKey);
}

/** Lets the form be sent again as it is: what it asked for was refused, so nothing was made under its key. */
export const unsent = (merchant: Merchant, operation: string, formKey: string): Promise<void> => forgetOnce(merchant.id, `dashboard-${operation}`, formKey);
