/**
 * The developers pages' queries and form bodies, apart from their routes: a route object then holds no call,
 * so a function leaves out the area's other routes (and these schemas, where it uses none of them).
 */
import * as v from 'valibot';
import { formText, pageForm } from '../pages.schemas.ts';

/** A field of checkboxes: one value (a string) or several (a list), each bounded. */
const formChoices = v.optional(v.union([v.pipe(v.string(), v.maxCodePoints(100)), v.pipe(v.array(v.pipe(v.string(), v.maxCodePoints(100))), v.maxLength(50))]));

/** `form_key`: the form's key (`SentOnce`), which a create claims: sent again, the form creates nothing. */
const formKey = formText(100);

/** A merchant API key made or revoked (`create`, `revoke`), or an organization API key (`create_org`, `revoke_org`). */
export const apiKeysFormBody = pageForm({
  action: v.picklist(['create', 'revoke', 'create_org', 'revoke_org']),
  name: formText(100),
  apiKeyId: formText(100),
  form_key: formKey,
});

export const webhooksFormBody = pageForm({
  action: v.literal('create'),
  url: formText(2048),
  eventTypes: formChoices,
  receiveSubMerchantEvents: formText(10),
  // Up to 20 lines of a 64-character name and a 1,024-character value.
  headers: formText(22_000),
  form_key: formKey,
});

export const destinationPageQuery = v.object({
  done: formText(40),
  status: formText(20),
  eventType: formText(100),
  httpStatus: formText(10),
  page: formText(10),
});

export const destinationFormBody = pageForm({ action: v.picklist(['test', 'reset_circuit', 'delete']) });

export const mcpTokensFormBody = pageForm({
  action: v.picklist(['create', 'revoke']),
  name: formText(100),
  scopes: formChoices,
  expiresInDays: formText(10),
  mcpTokenId: formText(100),
  form_key: formKey,
});
