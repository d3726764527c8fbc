/**
 * What to do next for each activation step of a merchant (`shared/people/activation.rules.ts`), in words an agent
 * can act on: the tool or the route that does it. A unit test holds every step to having one.
 */
import { createPayoutMethod } from '../money/index.ts';
import { submitOnboarding } from '../organizations/index.ts';
import { mintJoinLink, updateMerchant } from '../people/index.ts';
import type { RouteDef } from '../platform/http/route-def.ts';

const call = (route: RouteDef) => `${route.method} ${route.path}`;

/** The next action of each step, by its key. */
export const nextActions: Readonly<Record<string, string>> = {
  owner_attached:
    `The future owner claims the merchant through its join link (create_merchant_account answers it; a new one: ${call(mintJoinLink)}), ` +
    'or a member of the parent team is assigned as owner.',
  website_set: `Set the merchant's website URL: ${call(updateMerchant)} with {"websiteUrl": "https://…"}.`,
  onboarding_submitted: `Submit the onboarding form (the business and the person representing it): ${call(submitOnboarding)}.`,
  payout_method_added: `Add a payout method (a bank account) in the dashboard or with ${call(createPayoutMethod)}.`,
  go_live: 'Call the go_live tool (scope merchant:go_live).',
};
