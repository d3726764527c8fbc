import * as v from 'valibot';
import { email, isoTime, name, pagination, uuid } from '../platform/http/schemas/common.ts';
import { named } from '../platform/http/schemas/named.ts';

/** Passwords: 12 to 128 characters (the upper bound keeps hashing cost bounded). */
const password = v.pipe(v.string(), v.minCodePoints(12, 'must be at least 12 characters'), v.maxCodePoints(128));

export const signUpRequest = named('SignUpRequest', v.strictObject({ email, password, name: v.optional(name(200)) }));

export const signInRequest = named('SignInRequest', v.strictObject({ email, password: v.pipe(v.string(), v.maxCodePoints(128)) }));

const role = v.picklist(['owner', 'admin', 'member']);

/** A person; `emailVerified` once they opened the link mailed to `email` (until then no team can add them by it, only invite them). */
export const user = named(
  'User',
  v.strictObject({ id: uuid, email: v.string(), emailVerified: v.boolean(), name: v.nullable(v.string()), createdAt: isoTime }),
);

export const session = named(
  'Session',
  v.strictObject({
    token: v.pipe(v.string(), v.regex(/^mor_sess_[0-9a-f-]{36}\.[0-9a-f]{64}$/)),
    expiresAt: isoTime,
    user,
  }),
);

export const me = named(
  'Me',
  v.strictObject({
    user,
    memberships: v.array(v.strictObject({ merchantId: uuid, role })),
  }),
);

export const joinLinkClaim = named('JoinLinkClaim', v.strictObject({ merchantId: uuid, userId: uuid, role: v.literal('owner') }));

/** A member of a merchant's team, as the team routes show it. */
export const member = named(
  'Member',
  v.strictObject({
    userId: uuid,
    email: v.string(),
    name: v.nullable(v.string()),
    role,
    createdAt: isoTime,
  }),
);

/** One page of the team, oldest membership first, in the dashboard back end's list shape `{data, pagination}`. */
export const memberPage = named('MemberPage', v.strictObject({ data: v.array(member), pagination }));

/** Add someone the adding person works with on another team (by sign-in e-mail) as `admin` or `member` (default `member`). */
export const addMemberRequest = named(
  'AddMemberRequest',
  v.strictObject({
    email,
    role: v.optional(v.picklist(['admin', 'member'])),
  }),
);

/** Invite an e-mail address to the team as `admin` or `member` (default `member`). */
export const inviteRequest = named(
  'InvitationRequest',
  v.strictObject({
    email,
    role: v.optional(v.picklist(['admin', 'member'])),
  }),
);

/** A pending invitation: mailed to `email`, good once until `expiresAt` (`expired` after). */
export const invitation = named(
  'Invitation',
  v.strictObject({
    inviteId: v.pipe(v.string(), v.regex(/^[0-9a-f]{16}$/)),
    email: v.string(),
    role: v.picklist(['admin', 'member']),
    expiresAt: isoTime,
    expired: v.boolean(),
    createdAt: isoTime,
  }),
);

/** An accepted invitation: the merchant joined, as whom, with which role. */
export const invitationAccepted = named('InvitationAccepted', v.strictObject({ merchantId: uuid, userId: uuid, role: v.picklist(['admin', 'member']) }));

/** A member's new role. */
export const updateMemberRequest = named('UpdateMemberRequest', v.strictObject({ role }));
