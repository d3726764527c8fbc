/** @jsxImportSource hono/jsx */
/**
 * The join page of a team invitation link (`/join/inv_…`): which merchant, which role and which address the
 * invitation is for; signed out, the way to sign up or in and come back; signed in with the address invited, the
 * button that accepts; signed in otherwise, what to do instead.
 */
import type { InvitationView } from '../../people/index.ts';
import { Time } from '../kit/format.tsx';
import { roleName, SignUpOrIn } from '../access/pages.tsx';
import { Csrf, merchantPath, Notice, Page, type PageContext } from '../kit/layout.tsx';

export function InvitationPage(p: { ctx: PageContext; token: string; invitation: InvitationView }) {
  const here = `/join/${p.token}`;
  const i = p.invitation;
  return (
    <Page ctx={p.ctx} title="Join the team" narrow>
      <p>
        You are invited to join the team of <strong>{i.merchantName}</strong> as <strong>{roleName(i.role)}</strong>.
      </p>
      <p>
        The invitation is for <strong>{i.email}</strong>. This link works once, until <Time iso={i.expiresAt} />.
      </p>
      {i.signedInAs === null ? (
        <>
          <p>Create an account or sign in with {i.email} first; you come back here afterwards.</p>
          <SignUpOrIn back={here} />
        </>
      ) : !i.isInvited ? (
        <Notice
          error={`You are signed in as ${i.signedInAs}, but this invitation is for ${i.email}. Sign out, then open this link again and sign in or create an account with ${i.email}.`}
        />
      ) : i.isMember ? (
        <>
          <Notice notice={`You are already on the team of ${i.merchantName}.`} />
          <p>
            <a href={merchantPath(i.merchantId)}>Open {i.merchantName}</a>
          </p>
        </>
      ) : (
        <form method="post" action={here}>
          <Csrf ctx={p.ctx} />
          <div class="actions">
            <button type="submit">Accept invitation</button>
          </div>
        </form>
      )}
    </Page>
  );
}
