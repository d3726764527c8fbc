/** @jsxImportSource hono/jsx */
/** A merchant's team: members and roles; owners and admins add people, change roles and remove members. */
import type { Role } from '../../domain/merchants.ts';
import { Time } from '../kit/format.tsx';
import { ActionForm, Csrf, Field, Notice, Page, SelectField, Table, areaPath, type PageContext } from '../kit/layout.tsx';

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
  added: 'The member was added.',
  role_changed: 'The role was changed.',
  removed: 'The member was removed.',
};

export interface TeamProps {
  ctx: PageContext;
  members: readonly TeamMember[];
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
  const mayChange = (m: TeamMember) => p.isOwner || m.role !== 'owner';
  const choices: readonly Role[] = p.isOwner ? ['owner', 'admin', 'member'] : ['admin', 'member'];
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
                      <span class="muted">Only an owner can change an owner</span>
                    )}
                  </td>
                ) : null}
              </tr>
            );
          })}
        </Table>
        {p.members.length === 1 ? <p class="muted">You are the only member. Add the people you work with below.</p> : null}
      </section>
      {p.canManage ? (
        <section class="panel" aria-labelledby="add">
          <h2 id="add">Add a member</h2>
          <p>The person needs an account: ask them to sign up first, with the e-mail address you enter here.</p>
          <form method="post" action={path}>
            <Csrf ctx={p.ctx} />
            <input type="hidden" name="action" value="add" />
            <Field id="email" label="Email" type="email" value={p.email} autocomplete="off" maxlength={254} />
            <SelectField
              id="add-role"
              name="role"
              label="Role"
              choices={addRoles}
              value={p.addRole}
              hint="Members see everything; owners and admins also refund, manage the team and the partners."
            />
            <button type="submit">Add member</button>
          </form>
        </section>
      ) : (
        <p class="muted">Owners and admins manage the team.</p>
      )}
    </Page>
  );
}
