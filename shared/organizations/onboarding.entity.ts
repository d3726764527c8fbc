/**
 * An onboarding submission (organization API): one item per organization, in its partition
 * (`MERCHANT#<orgId>` / `ONBOARDING`), written once in the same transaction that moves the organization's hosted
 * onboarding form to `submitted`.
 */
import * as v from 'valibot';
import { organizationMemberSchema, phone } from '../people/merchants.schemas.ts';
import type { OrganizationMember, Phone } from '../domain/merchants.ts';
import { entity, orNull } from '../platform/db/entity.ts';

/** Who submitted an onboarding: an organization API account (its key), or an owner on the dashboard. */
export type OnboardingSubmitter = { submittedByAccountId: string } | { submittedByUserId: string };

export type OnboardingSubmission = OnboardingSubmitter & {
  organizationId: string;
  business: {
    name: string;
    doingBusinessAs: string;
    type: string;
    public: boolean | null;
    category: string;
    isStartup: boolean;
    taxId: string;
    registrationNumber: string;
    paymentReference: string;
    productAndServiceDescription: string;
    website: string;
    address: string;
    city: string;
    state: string;
    zip: string;
    country: string;
    phone: Phone;
    /** Expected sales volume in minor units of `account.reportCurrency`. */
    salesVolume: number;
    sellsItemsIllegalInDefaultGateway: boolean;
  };
  member: OrganizationMember;
  account: { reportCurrency: string; payoutCurrency: string };
  submittedAt: string;
};

export const onboarding = (organizationId: string) => ({ pk: `MERCHANT#${organizationId}`, sk: 'ONBOARDING' });

const submission = {
  organizationId: v.string(),
  business: v.object({
    name: v.string(),
    doingBusinessAs: v.string(),
    type: v.string(),
    public: orNull(v.boolean()),
    category: v.string(),
    isStartup: v.boolean(),
    taxId: v.string(),
    registrationNumber: v.string(),
    paymentReference: v.string(),
    productAndServiceDescription: v.string(),
    website: v.string(),
    address: v.string(),
    city: v.string(),
    state: v.string(),
    zip: v.string(),
    country: v.string(),
    phone,
    salesVolume: v.number(),
    sellsItemsIllegalInDefaultGateway: v.boolean(),
  }),
  member: organizationMemberSchema,
  account: v.object({ reportCurrency: v.string(), payoutCurrency: v.string() }),
  submittedAt: v.string(),
};

export const OnboardingEntity = entity<OnboardingSubmission, { organizationId: string }>({
  kind: 'onboarding',
  // A submission by an owner on the dashboard names the user; one by an account, the account.
  schema: v.union([v.object({ ...submission, submittedByUserId: v.string() }), v.object({ ...submission, submittedByAccountId: v.string() })]),
  key: (s) => onboarding(s.organizationId),
});
