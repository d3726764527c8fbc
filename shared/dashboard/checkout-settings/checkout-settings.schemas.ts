/**
 * The checkout settings pages' queries and form bodies, apart from their routes: a route object then holds no call,
 * so a function leaves out the area's other routes (and these schemas, where it uses none of them).
 */
import * as v from 'valibot';
import { formText, pageForm } from '../pages.schemas.ts';

export const checkoutSettingsPageQuery = v.object({ done: formText(40), document: formText(40) });

export const checkoutSettingsFormBody = pageForm({
  action: v.picklist(['customization', 'website', 'policies', 'policy-delete']),
  display_name: formText(200),
  brand_color: formText(20),
  accent_color: formText(20),
  website_url: formText(2100),
  terms_url: formText(2100),
  privacy_url: formText(2100),
  return_policy_url: formText(2100),
  eula_url: formText(2100),
  policy_type: formText(40),
});
