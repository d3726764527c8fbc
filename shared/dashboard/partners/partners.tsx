/** @jsxImportSource hono/jsx */
/** A partner merchant's sub-merchants: the list, creating one, its join link, assigning a member of the team to one. */
import { ListPager, PastTheEnd } from '../customers/paging.tsx';
import { Status, Time } from '../kit/format.tsx';
import { ActionForm, Csrf, Empty, Field, Notice, Page, SecretOnce, SelectField, SentOnce, Table, areaPath, type PageContext } from '../kit/layout.tsx';

export interface SubMerchantRow {
  id: string;
  name: string;
  websiteUrl: string | null;
  ownerAttached: boolean;
  live: boolean;
  stepsDone: number;
  stepsTotal: number;
  createdAt: string;
}

/** A join link, shown once in the answer to the form that made it. */
export interface JoinLinkShown {
  merchantName: string;
  url: string;
  expiresAt: string;
}

/** What was typed in the forms, kept when one is shown again with what is wrong. */
export interface PartnerForm {
  action?: string;
  name?: string;
  websiteUrl?: string;
  ownerEmail?: string;
  subMerchantId?: string;
  email?: string;
  role?: string;
}

/** The roles a member can be assigned with. */
const assignRoles = [
  { value: 'member', label: 'Member' },
  { value: 'admin', label: 'Admin' },
] as const;

const doneNotices: Readonly<Record<string, string>> = {
  created: 'The merchant was created. Send its join link to the person who will own it.',
  created_with_owner: 'The merchant was created, and its owner can sign in to it now.',
  reminted: 'A new join link was made; the earlier one no longer works.',
  assigned: 'The member was assigned.',
  sent_before:
    'This form was sent before: its merchant was created then, and its join link shown that once. No other merchant was created. If the link was not kept, make a new one from the list below.',
};

export interface PartnersProps {
  ctx: PageContext;
  isRoot: boolean;
  canManage: boolean;
  /** The page of the list shown. */
  subMerchants: readonly SubMerchantRow[];
  /** How many sub-merchants there are in all. */
  totalCount: number;
  page: number;
  form: PartnerForm;
  joinLink?: JoinLinkShown;
  done?: string;
  error?: string;
}

export function PartnersPage(p: PartnersProps) {
  const path = areaPath(p.ctx.merchant!.id, 'partners');
  if (!p.isRoot) {
    return (
      <Page ctx={p.ctx} title="Partners" area="partners">
        <Notice error={p.error} />
        <p>Partners are for root merchants: this is a sub-merchant, so it cannot have sub-merchants of its own.</p>
        <p>The partner merchant that created it manages its sub-merchants from its own Partners page.</p>
      </Page>
    );
  }
  const f = p.form;
  const assignTo = f.action === 'assign' ? (f.subMerchantId ?? '') : '';
  return (
    <Page ctx={p.ctx} title="Partners" area="partners">
      <Notice notice={p.done ? doneNotices[p.done] : undefined} error={p.error} />
      {p.joinLink ? (
        <section class="panel" aria-labelledby="join-link">
          <h2 id="join-link">Join link of {p.joinLink.merchantName}</h2>
          <SecretOnce id="join-link-url" label="Join link" value={p.joinLink.url} />
          <p class="muted">
            Whoever opens it first and signs in becomes the owner. It works until <Time iso={p.joinLink.expiresAt} />.
          </p>
        </section>
      ) : null}
      <section aria-labelledby="sub-merchants">
        <h2 id="sub-merchants">Sub-merchants</h2>
        {p.subMerchants.length === 0 && p.page > 1 ? (
          <PastTheEnd page={p.page} what="sub-merchants" first={path} />
        ) : p.subMerchants.length === 0 ? (
          <Empty>No sub-merchants yet. {p.canManage ? 'Create the first one below.' : 'An owner or admin can create them.'}</Empty>
        ) : (
          <>
            <p class="muted">
              {p.totalCount} {p.totalCount === 1 ? 'sub-merchant' : 'sub-merchants'}
            </p>
            <Table
              caption="The sub-merchants of this partner merchant, newest first"
              columns={['Name', 'Website', 'Owner', 'Activation', 'Created', p.canManage && 'Join link']}
              stack
            >
              {p.subMerchants.map((m) => (
                <tr>
                  <td data-label="Name">{m.name}</td>
                  <td data-label="Website">{m.websiteUrl ? <span class="wrap">{m.websiteUrl}</span> : <span class="muted">—</span>}</td>
                  <td data-label="Owner">{m.ownerAttached ? 'Attached' : <span class="muted">Not claimed yet</span>}</td>
                  <td data-label="Activation">{m.live ? <Status status="live" /> : `${m.stepsDone} of ${m.stepsTotal} steps`}</td>
                  <td data-label="Created">
                    <Time iso={m.createdAt} />
                  </td>
                  {p.canManage ? (
                    <td data-label="Join link">
                      {m.ownerAttached ? (
                        <span class="muted">Claimed</span>
                      ) : (
                        <ActionForm
                          ctx={p.ctx}
                          path={path}
                          action="remint"
                          fields={{ subMerchantId: m.id }}
                          confirm={`Make a new join link for ${m.name}? The earlier link stops working.`}
                          tone="secondary"
                          label={`New join link for ${m.name}`}
                        >
                          New join link
                        </ActionForm>
                      )}
                    </td>
                  ) : null}
                </tr>
              ))}
            </Table>
            <ListPager path={path} params={{}} page={p.page} totalCount={p.totalCount} label="Sub-merchants" />
          </>
        )}
      </section>
      {p.canManage ? (
        <>
          <section class="panel" aria-labelledby="create">
            <h2 id="create">Create a sub-merchant</h2>
            <form method="post" action={path}>
              <Csrf ctx={p.ctx} />
              <input type="hidden" name="action" value="create" />
              <SentOnce ctx={p.ctx} />
              <Field id="name" label="Name" value={f.action === 'create' ? f.name : ''} maxlength={200} />
              <Field
                id="websiteUrl"
                label="Website"
                type="url"
                value={f.action === 'create' ? f.websiteUrl : ''}
                maxlength={2048}
                hint="Optional. The shop's address, starting with https://."
              />
              <Field
                id="ownerEmail"
                label="Owner email"
                type="email"
                value={f.action === 'create' ? f.ownerEmail : ''}
                maxlength={254}
                autocomplete="off"
                hint="Optional. A person who already has an account becomes the owner at once; without one you get a join link to send."
              />
              <button type="submit">Create merchant</button>
            </form>
          </section>
          {p.subMerchants.length > 0 ? (
            <section class="panel" aria-labelledby="assign">
              <h2 id="assign">Assign a member</h2>
              <p>Give a member of this merchant's team access to a sub-merchant. On a sub-merchant without an owner, they become its owner.</p>
              <form method="post" action={path}>
                <Csrf ctx={p.ctx} />
                <input type="hidden" name="action" value="assign" />
                <SelectField
                  id="assign-merchant"
                  name="subMerchantId"
                  label="Sub-merchant"
                  choices={p.subMerchants.map((m) => ({ value: m.id, label: m.name }))}
                  value={assignTo}
                  {...(p.totalCount > p.subMerchants.length
                    ? { hint: 'The sub-merchants on this page of the list; page through the list for the others.' }
                    : {})}
                />
                <Field id="email" label="Email" type="email" value={f.action === 'assign' ? f.email : ''} maxlength={254} autocomplete="off" />
                <SelectField id="assign-role" name="role" label="Role" choices={assignRoles} value={f.role === 'admin' ? 'admin' : 'member'} />
                <button type="submit">Assign member</button>
              </form>
            </section>
          ) : null}
        </>
      ) : (
        <p class="muted">Owners and admins create sub-merchants and send their join links.</p>
      )}
    </Page>
  );
}
