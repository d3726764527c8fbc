/**
 * The catalog pages' queries and form bodies, apart from their routes: a route object then holds no call,
 * so a function leaves out the area's other routes (and these schemas, where it uses none of them).
 */
import * as v from 'valibot';
import { formText, pageForm } from '../pages.schemas.ts';

export const catalogPageQuery = v.object({ done: formText(40), products_page: formText(6), plans_page: formText(6), promo_codes_page: formText(6) });

export const catalogFormBody = pageForm({
  action: v.picklist(['create_product', 'archive_product', 'create_plan', 'archive_plan', 'create_promo', 'deactivate_promo']),
  name: formText(255),
  description: formText(1000),
  type: formText(20),
  product_id: formText(60),
  plan_id: formText(60),
  promo_code_id: formText(60),
  amount: formText(30),
  currency: formText(10),
  interval: formText(20),
  code: formText(60),
  percent_off: formText(20),
  amount_off: formText(30),
  amount_off_currency: formText(10),
  /** A create form's key (`SentOnce`): sent again, it creates nothing. */
  form_key: formText(100),
});
