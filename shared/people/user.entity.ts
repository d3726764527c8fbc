/**
 * A user, a person who signs in (`USER#<id>` / `USER`), and the e-mail claim that keeps sign-in addresses unique
 * (`EMAIL#<lowercased address>` / `EMAIL`, naming its user: written in the same transaction as the user, and marked
 * verified in the same transaction as the user).
 */
import * as v from 'valibot';
import { entity, orNull } from '../platform/db/entity.ts';

export interface User {
  id: string;
  email: string;
  name: string | null;
  passwordHash: string;
  createdAt: string;
  /** When the person first proved they read mail at `email` (./email-verifications.service.ts); null until then. */
  emailVerifiedAt: string | null;
}

export const user = (id: string) => ({ pk: `USER#${id}`, sk: 'USER' });
/** The claim of a sign-in address: one per address, case-insensitively. */
export const emailClaim = (email: string) => ({ pk: `EMAIL#${email.toLowerCase()}`, sk: 'EMAIL' });

export const UserEntity = entity<User, { id: string }>({
  kind: 'user',
  schema: v.object({
    id: v.string(),
    email: v.string(),
    name: orNull(v.string()),
    passwordHash: v.string(),
    createdAt: v.string(),
    emailVerifiedAt: orNull(v.string()),
  }),
  key: (u) => user(u.id),
});

/**
 * The e-mail claim's item: the user it names, and since when that user has proved the address (`verifiedAt`, kept
 * with the user's `emailVerifiedAt`, both written together), so one read tells whose an address is and whether it may
 * give them access.
 */
export const emailClaimSchema = v.object({ userId: v.string(), verifiedAt: orNull(v.string()) });

/** The public fields of a user (never the password hash), as a team list reads them. */
export const userProfileSchema = v.object({ id: v.string(), email: v.string(), name: orNull(v.string()) });
