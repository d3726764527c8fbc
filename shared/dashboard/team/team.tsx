/** @jsxImportSource hono/jsx */
/** A merchant's team: members and roles; owners and admins add people, change roles and remove members. */
import type { Role } from '../../domain/merchants.ts';
import { Time } from '../kit/format.tsx';
import { Csrf, Field, Notice, Page, areaPath, type PageContext } from '../kit/layout.tsx';

export interface TeamMember {
  userId: string;
  email: string;
  name: string | null;
  role: Role;
  createdAt: string;
}

const roleNames: Readonly<Record<Role, string>> = { owner: 'Owner', admin: 'Admin', member: 'Member' };

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
        <div class="table-wrap">
          <table>
            <caption class="sr-only">The members of this merchant and their roles</caption>
            <thead>
              <tr>
                <th scope="col">Name</th>
                <th scope="col">Email</th>
                <th scope="col">Role</th>
                <th scope="col">Joined</th>
                {p.canManage ? <th scope="col">Manage</th> : null}
              </tr>
            </thead>
            <tbody>
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
                            <form method="post" action={path} class="inline" data-confirm={`Remove ${who} from the team?`}>
                              <Csrf ctx={p.ctx} />
                              <input type="hidden" name="action" value="remove" />
                              <input type="hidden" name="userId" value={m.userId} />
                              <button type="submit" class="danger" aria-label={`Remove ${who}`}>
                                Remove
                              </button>
                            </form>
                          </div>
                        ) : (
                          <span class="muted">Only an owner can change an owner</span>
                        )}
                      </td>
                    ) : null}
                  </tr>
                );
              })}
            </tbody>
          </table>
        </div>
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
            <div class="field">
              <label for="add-role">Role</label>
              <select id="add-role" name="role" aria-describedby="add-role-hint">
                <option value="member" selected={p.addRole === 'member'}>
                  Member
                </option>
                <option value="admin" selected={p.addRole === 'admin'}>
                  Admin
                </option>
              </select>
              <p class="hint" id="add-role-hint">
                Members see everything; owners and admins also refund, manage the team and the partners.
              </p>
            </div>
            <button type="submit">Add member</button>
          </form>
        </section>
      ) : (
        <p class="muted">Owners and admins manage the team.</p>
      )}
    </Page>
  );
}
