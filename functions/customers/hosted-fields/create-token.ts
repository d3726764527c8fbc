import { objectReply } from '../../../shared/platform/http/envelopes.ts';
import { route } from '../../../shared/access/auth-client-token.ts';
import { tokenizeHostedFieldsCard } from '../../../shared/customers/hosted-fields.tokenize.ts';
import * as customerRoutes from '../../../shared/customers/routes.ts';

export const handler = route(customerRoutes.tokenizeHostedFields, async ({ principal, body }) => ({
  status: 201,
  body: objectReply(await tokenizeHostedFieldsCard(principal, body)),
}));
