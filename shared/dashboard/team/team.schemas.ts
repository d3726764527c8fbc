/**
 * The team pages' form body, apart from their routes: a route object then holds no call,
 * so a function leaves out the area's other routes (and these schemas, where it uses none of them).
 */
import * as v from 'valibot';
import { formText, pageForm } from '../pages.schemas.ts';

export const teamFormBody = pageForm({
  action: v.picklist(['invite', 'revoke', 'add', 'role', 'remove', 'leave']),
  email: formText(254),
  role: formText(20),
  userId: formText(40),
  inviteId: formText(40),
  /** The invite and add form's key (`SentOnce`): sent again, it invites or adds no one again. */
  form_key: formText(200),
});
