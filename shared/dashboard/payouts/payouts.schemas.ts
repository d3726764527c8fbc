/**
 * The payouts pages' queries and form bodies, apart from their routes: a route object then holds no call,
 * so a function leaves out the area's other routes (and these schemas, where it uses none of them).
 */
import * as v from 'valibot';
import { formText, pageForm } from '../pages.schemas.ts';

export const payoutsPageQuery = v.object({ done: formText(40), page: formText(9) });

export const payoutsFormBody = pageForm({
  action: v.picklist(['add_method', 'remove_method', 'request_payout']),
  holder_name: formText(200),
  country: formText(10),
  currency: formText(10),
  account_number: formText(60),
  routing_number: formText(40),
  amount: formText(30),
  payout_method_id: formText(60),
  idempotency_key: formText(300),
  /** The add form's key (`SentOnce`): sent again, it adds no second method. */
  form_key: formText(100),
});
