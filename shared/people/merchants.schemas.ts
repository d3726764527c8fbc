/** The shapes of a merchant's organization fields as onboarding submitted them, stored on the merchant and the submission. */
import * as v from 'valibot';
import { orNull } from '../platform/db/entity.ts';

/** A phone number as onboarding takes it. */
export const phone = v.object({ countryCode: v.string(), number: v.string() });

/** The organization's member as onboarding submitted it (`OrganizationMember`), stored on the merchant and the submission. */
export const organizationMemberSchema = v.object({
  firstName: v.string(),
  lastName: v.string(),
  dateOfBirth: orNull(v.string()),
  phone: orNull(phone),
  address: v.string(),
  city: v.string(),
  state: orNull(v.string()),
  zip: orNull(v.string()),
  country: v.string(),
});
