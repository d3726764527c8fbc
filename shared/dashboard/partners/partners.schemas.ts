/**
 * The partners pages' queries and form bodies, apart from their routes: a route object then holds no call,
 * so a function leaves out the area's other routes (and these schemas, where it uses none of them).
 */
import * as v from 'valibot';
import { formText, pageForm } from '../pages.schemas.ts';

export const partnersPageQuery = v.object({ done: formText(40), page: formText(6) });

export const partnersFormBody = pageForm({
  action: v.picklist(['create', 'remint', 'assign']),
  name: formText(200),
  websiteUrl: formText(2048),
  ownerEmail: formText(254),
  subMerchantId: formText(40),
  email: formText(254),
  role: formText(20),
  /** The create form's key (`SentOnce`): sent again, it creates nothing. */
  form_key: formText(100),
});
