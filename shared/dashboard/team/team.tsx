/** @jsxImportSource hono/jsx */
/**
 * A merchant's team: members and roles; owners and admins invite people by e-mail (and see, send again and revoke the
 * pending invitations), add registered users, change roles and remove members; any member may leave.
 */
import type { Role } from '../../domain/merchants.ts';
import { type InviteView, INVITE_TTL_DAYS } from '../../people/index.ts';
import { Time } from '../kit/format.tsx';
import { ActionForm, Csrf, Field, Notice, Page, SelectField, SentOnce, Table, areaPath, type PageContext } from '../kit/layout.tsx';

export interface TeamMember {
  userId: string;
  email: string;
  name: string | null;
  role: Role;
  createdAt: string;
}

const roleNames: Readonly<Record<Role, string>> = { owner: 'Owner', admin: 'Admin', member: 'Member' };

/** The roles a new member can be added with. */
const addRoles = [
  { value: 'member', label: 'Member' },
  { value: 'admin', label: 'Admin' },
] as const;

const doneNotices: Readonly<Record<string, string>> = {
  invited: `The invitation was sent. Its link works once, for ${INVITE_TTL_DAYS} days.`,
  revoked: 'The invitation was revoked: its link no longer works.',
  added: 'The member was added.',
  role_changed: 'The role was changed.',
  removed: 'The member was removed.',
  sent_before: 'This form was sent before: its invitation went out (or its member was added) then. No one was invited or added again.',
};

export interface TeamProps {
  ctx: PageContext;
  members: readonly TeamMember[];
  /** The pending invitations (shown to owners and admins). */
  invites: readonly InviteView[];
  /** The signed-in person's user id. */
  me: string;
  canManage: boolean;
  isOwner: boolean;
  email: string;
  addRole: 'admin' | 'member';
  done?: string;
  error?: string;
}

export function TeamPage(p: TeamProps) {
  const path = areaPath(p.ctx.merchant!.id, 'team');
  // An admin may not touch an owner nor make one (the service holds the same rule).
  const choices: readonly Role[] = p.isOwner ? ['owner', 'admin', 'member'] : ['admin', 'member'];
  const owners = p.members.filter((m) => m.role === 'owner');
  const lastOwner = owners.length === 1 && owners[0]!.userId === p.me;
  /** The merchant's one owner: no one may change or remove them (the back end refuses it: the last owner stays). */
  const soleOwner = (m: TeamMember) => m.role === 'owner' && owners.length === 1;
  const mayChange = (m: TeamMember) => (p.isOwner || m.role !== 'owner') && !soleOwner(m);
  return (
    <Page ctx={p.ctx} title="Team" area="team">
      <Notice notice={p.done ? doneNotices[p.done] : undefined} error={p.error} />
      <section aria-labelledby="members">
        <h2 id="members">Members</h2>
        <Table caption="The members of this merchant and their roles" columns={['Name', 'Email', 'Role', 'Joined', p.canManage && 'Manage']}>
          {p.members.map((m) => {
            const who = m.name ?? m.email;
            return (
              <tr>
                <td>
                  {m.name ?? <span class="muted">—</span>}
                  {m.userId === p.me ? <span class="muted"> (you)</span> : null}
                </td>
                <td>{m.email}</td>
                <td>{roleNames[m.role]}</td>
                <td>
                  <Time iso={m.createdAt} />
                </td>
                {p.canManage ? (
                  <td>
                    {mayChange(m) ? (
                      <div class="actions">
                        <form method="post" action={path} class="actions">
                          <Csrf ctx={p.ctx} />
                          <input type="hidden" name="action" value="role" />
                          <input type="hidden" name="userId" value={m.userId} />
                          <label class="sr-only" for={`role-${m.userId}`}>
                            Role of {who}
                          </label>
                          <select id={`role-${m.userId}`} name="role">
                            {choices.map((r) => (
                              <option value={r} selected={r === m.role}>
                                {roleNames[r]}
                              </option>
                            ))}
                          </select>
                          <button type="submit" class="secondary" aria-label={`Save the role of ${who}`}>
                            Save
                          </button>
                        </form>
                        <ActionForm
                          ctx={p.ctx}
                          path={path}
                          action="remove"
                          fields={{ userId: m.userId }}
                          confirm={`Remove ${who} from the team?`}
                          tone="danger"
                          label={`Remove ${who}`}
                        >
                          Remove
                        </ActionForm>
                      </div>
                    ) : (
                      <span class="muted">{soleOwner(m) ? 'The only owner: make another member owner first' : 'Only an owner can change an owner'}</span>
                    )}
                  </td>
                ) : null}
              </tr>
            );
          })}
        </Table>
        {p.members.length === 1 ? <p class="muted">You are the only member. Invite the people you work with below.</p> : null}
      </section>
      {p.canManage ? (
        <section class="panel" aria-labelledby="add">
          <h2 id="add">Add people</h2>
          <p>
            Invite anyone by e-mail: they get a link that works once, for {INVITE_TTL_DAYS} days, and join the team when they accept it, signed in with that
            address. Someone you already work with on another of your teams can also be added at once.
          </p>
          <form method="post" action={path}>
            <Csrf ctx={p.ctx} />
            <SentOnce ctx={p.ctx} />
            <Field id="email" label="Email" type="email" value={p.email} autocomplete="off" maxlength={254} />
            <SelectField
              id="add-role"
              name="role"
              label="Role"
              choices={addRoles}
              value={p.addRole}
              hint="Members see everything; owners and admins also refund, manage the team and the partners."
            />
            <div class="actions">
              <button type="submit" name="action" value="invite">
                Send invitation
              </button>
              <button type="submit" name="action" value="add" class="secondary">
                Add member
              </button>
            </div>
          </form>
        </section>
      ) : (
        <p class="muted">Owners and admins manage the team.</p>
      )}
      {p.canManage && p.invites.length > 0 ? <Invitations ctx={p.ctx} path={path} invites={p.invites} /> : null}
      <section class="panel" aria-labelledby="leave">
        <h2 id="leave">Leave this team</h2>
        {lastOwner ? (
          <p>You are the only owner of this merchant, so you cannot leave its team: make someone else an owner first.</p>
        ) : (
          <>
            <p>You lose access to this merchant at once; an owner or admin can invite you again.</p>
            <ActionForm ctx={p.ctx} path={path} action="leave" confirm={`Leave the team of ${p.ctx.merchant!.name}?`} tone="danger" inline={false}>
              Leave this team
            </ActionForm>
          </>
        )}
      </section>
    </Page>
  );
}

/** The pending invitations: each address, its role and when its link stops working; send again, or revoke. */
function Invitations(p: { ctx: PageContext; path: string; invites: readonly InviteView[] }) {
  return (
    <section aria-labelledby="invitations">
      <h2 id="invitations">Pending invitations</h2>
      <Table caption="Invitations not accepted yet" columns={['Email', 'Role', 'Link works until', 'Manage']}>
        {p.invites.map((i) => (
          <tr>
            <td>{i.email}</td>
            <td>{roleNames[i.role]}</td>
            <td>
              {i.expired ? <strong>Expired </strong> : null}
              <Time iso={i.expiresAt} />
            </td>
            <td>
              <div class="actions">
                <ActionForm
                  ctx={p.ctx}
                  path={p.path}
                  action="invite"
                  // Each row's own key of this page: sent again, it mails that invitation no second time.
                  fields={{ email: i.email, role: i.role, form_key: `${p.ctx.formKey ?? ''}:${i.inviteId}` }}
                  tone="secondary"
                  label={`Send again the invitation to ${i.email}`}
                >
                  Send again
                </ActionForm>
                <ActionForm
                  ctx={p.ctx}
                  path={p.path}
                  action="revoke"
                  fields={{ inviteId: i.inviteId }}
                  confirm={`Revoke the invitation of ${i.email}?`}
                  tone="danger"
                  label={`Revoke the invitation of ${i.email}`}
                >
                  Revoke
                </ActionForm>
              </div>
            </td>
          </tr>
        ))}
      </Table>
    </section>
  );
}
