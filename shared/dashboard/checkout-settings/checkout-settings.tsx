/** @jsxImportSource hono/jsx */
/**
 * A merchant's checkout settings: the checkout's display name and colours with a live preview (the page's script
 * applies the form's colours to it as they are typed), the website, the policy URLs and the uploaded policy PDFs.
 * A policy PDF is uploaded by the page's script straight to storage (a presigned PUT the dashboard API makes), so
 * without the script the upload form stays hidden and a note says why; each PDF listed opens through the page
 * (`?document=<type>`) and is deleted with a form.
 */
import type { Child } from 'hono/jsx';
import type { CheckoutCustomizationView } from '../../organizations/index.ts';
import { LOGO_MAX_BYTES } from '../../domain/images.ts';
import { POLICY_MAX_BYTES } from '../../domain/policies.ts';
import { Time, formatBytes } from '../kit/format.tsx';
import { ActionForm, Csrf, Empty, Field, Notice, Page, SelectField, Table, areaPath, type PageContext } from '../kit/layout.tsx';

/** What the page's forms send (every field optional: the services say what is wrong). */
export interface SettingsForm {
  action?: 'customization' | 'website' | 'policies' | 'policy-delete';
  display_name?: string | undefined;
  brand_color?: string | undefined;
  accent_color?: string | undefined;
  website_url?: string | undefined;
  terms_url?: string | undefined;
  privacy_url?: string | undefined;
  return_policy_url?: string | undefined;
  eula_url?: string | undefined;
  policy_type?: string | undefined;
}

interface Policies {
  termsUrl: string | null;
  privacyUrl: string | null;
  returnPolicyUrl: string | null;
  eulaUrl: string | null;
  documents: ReadonlyArray<{ policyType: string; size: number; uploadedAt: string }>;
}

const doneNotices: Readonly<Record<string, string>> = {
  customization: 'The checkout look was saved. Buyers see it on the hosted checkout pages now.',
  website: 'The website was saved.',
  policies: 'The policy links were saved.',
  logo: 'The logo was saved. Buyers see it on the hosted checkout pages now.',
  'policy-uploaded': 'The policy PDF was uploaded. The checkout links it now.',
  'policy-deleted': 'The policy PDF was deleted. The checkout no longer links it.',
};

/** Each policy type's name as the page shows it. */
export const policyNames: Readonly<Record<string, string>> = {
  terms: 'Terms of service',
  privacy: 'Privacy policy',
  'return-policy': 'Return policy',
  eula: 'End-user license agreement',
};

export interface CheckoutSettingsProps {
  ctx: PageContext;
  customization: CheckoutCustomizationView;
  websiteUrl: string | null;
  policies: Policies;
  canManage: boolean;
  done?: string;
  error?: string;
  /** The input of the look form `error` is about. */
  field?: string;
  form?: SettingsForm;
}

export function CheckoutSettingsPage(p: CheckoutSettingsProps) {
  const here = areaPath(p.ctx.merchant!.id, 'checkout');
  const c = p.customization;
  const look = p.form?.action === 'customization' ? p.form : undefined;
  const site = p.form?.action === 'website' ? p.form : undefined;
  const pol = p.form?.action === 'policies' ? p.form : undefined;
  const shownName = look ? look.display_name : (c.displayName ?? '');
  const fallbackName = p.ctx.merchant!.name;
  const fieldError = (input: string) => (p.field === input ? p.error : undefined);
  const Save = ({ label }: { label: string }) =>
    p.canManage ? (
      <div class="actions">
        <button type="submit">{label}</button>
      </div>
    ) : null;
  /** A form's fields: shown to every member, editable by owners and admins only (a member's are disabled, so nothing posts). */
  const Fields = ({ children }: { children: Child }) => (
    <fieldset class="bare" disabled={!p.canManage}>
      {children}
    </fieldset>
  );
  return (
    <Page ctx={p.ctx} title="Checkout settings" area="checkout">
      <Notice notice={p.done ? doneNotices[p.done] : undefined} error={p.error} />
      {p.canManage ? null : <p class="muted">Only an owner or admin can change these settings.</p>}

      <section aria-labelledby="look">
        <h2 id="look">Look of the checkout</h2>
        <div class="grid">
          <form method="post" action={here} data-preview="checkout-preview">
            <Csrf ctx={p.ctx} />
            <input type="hidden" name="action" value="customization" />
            <Fields>
              <Field
                id="display_name"
                label="Display name"
                maxlength={100}
                value={shownName}
                data={{ 'preview-name': '' }}
                hint="The name buyers see. Empty: the merchant's name."
                error={fieldError('display_name')}
              />
              <Field
                id="brand_color"
                label="Brand colour"
                maxlength={7}
                value={look ? look.brand_color : (c.brandColor ?? '')}
                data={{ 'preview-var': 'brand', saved: c.brandColor ?? '' }}
                hint="Written #RRGGBB, on the pay button: dark enough for its white text (contrast 4.5:1 or more)."
                error={fieldError('brand_color')}
              />
              <Field
                id="accent_color"
                label="Accent colour"
                maxlength={7}
                value={look ? look.accent_color : (c.accentColor ?? '')}
                data={{ 'preview-var': 'accent', saved: c.accentColor ?? '' }}
                hint="Written #RRGGBB, under the checkout's header."
                error={fieldError('accent_color')}
              />
            </Fields>
            <Save label="Save" />
          </form>
          <div>
            <h3 id="preview-title">Preview</h3>
            <div class="preview" id="checkout-preview">
              <div class="bar">
                {c.logo ? <img src={c.logo.url} alt="" height={24} /> : null} <span data-preview-name-target={fallbackName}>{shownName || fallbackName}</span>
              </div>
              <p>Your product · $25.00</p>
              <span class="button pay">Pay $25.00</span>
            </div>
            {p.canManage ? (
              <>
                <form
                  id="logo-form"
                  data-logo-upload={`/api/v1/dashboard/merchants/${p.ctx.merchant!.id}/checkout-customization/logo`}
                  data-done={`${here}?done=logo`}
                  hidden
                >
                  <div class="field">
                    <label for="logo">Logo</label>
                    <input id="logo" name="logo" type="file" accept="image/png,image/jpeg,image/webp" required aria-describedby="logo-hint" />
                    <p class="hint" id="logo-hint">
                      PNG, JPEG or WebP, at most {formatBytes(LOGO_MAX_BYTES)}.
                    </p>
                  </div>
                  <p class="error" role="alert" id="logo-error" hidden />
                  <div class="actions">
                    <button type="submit">Upload logo</button>
                  </div>
                </form>
                <p class="hint" data-without-script>
                  Uploading a logo needs JavaScript in this browser; it can also be set through the dashboard API (PUT …/checkout-customization/logo).
                </p>
              </>
            ) : null}
          </div>
        </div>
      </section>

      <section aria-labelledby="website">
        <h2 id="website">Website</h2>
        <form method="post" action={here}>
          <Csrf ctx={p.ctx} />
          <input type="hidden" name="action" value="website" />
          <Fields>
            <Field
              id="website_url"
              label="Website"
              type="url"
              maxlength={2048}
              value={site ? site.website_url : (p.websiteUrl ?? '')}
              hint="Where buyers find your business, starting with https://. Going live needs it."
            />
          </Fields>
          <Save label="Save website" />
        </form>
      </section>

      <section aria-labelledby="policies">
        <h2 id="policies">Policies</h2>
        <p class="muted">The checkout links each policy given here. Empty: no link.</p>
        <form method="post" action={here}>
          <Csrf ctx={p.ctx} />
          <input type="hidden" name="action" value="policies" />
          <Fields>
            <Field id="terms_url" label="Terms of service URL" type="url" maxlength={2048} value={pol ? pol.terms_url : (p.policies.termsUrl ?? '')} />
            <Field id="privacy_url" label="Privacy policy URL" type="url" maxlength={2048} value={pol ? pol.privacy_url : (p.policies.privacyUrl ?? '')} />
            <Field
              id="return_policy_url"
              label="Return policy URL"
              type="url"
              maxlength={2048}
              value={pol ? pol.return_policy_url : (p.policies.returnPolicyUrl ?? '')}
            />
            <Field id="eula_url" label="End-user license agreement URL" type="url" maxlength={2048} value={pol ? pol.eula_url : (p.policies.eulaUrl ?? '')} />
          </Fields>
          <Save label="Save policies" />
        </form>
        <h3 id="policy-pdfs">Policy PDFs</h3>
        <p class="muted">The checkout links each policy PDF uploaded here, beside the policy links above.</p>
        {p.policies.documents.length === 0 ? (
          <Empty>No policy PDF uploaded.{p.canManage ? ' Upload one below; the checkout then links it.' : ''}</Empty>
        ) : (
          <Table caption="Uploaded policy PDFs" columns={['Policy', { name: 'Size', num: true }, 'Uploaded', 'PDF', p.canManage && 'Manage']}>
            {p.policies.documents.map((d) => {
              const name = policyNames[d.policyType] ?? d.policyType;
              return (
                <tr>
                  <td>{name}</td>
                  <td class="num">{formatBytes(d.size)}</td>
                  <td>
                    <Time iso={d.uploadedAt} />
                  </td>
                  <td>
                    <a href={`${here}?document=${d.policyType}`} target="_blank" rel="noopener" aria-label={`Open the ${name} PDF (new tab)`}>
                      Open
                    </a>
                  </td>
                  {p.canManage ? (
                    <td>
                      <ActionForm
                        ctx={p.ctx}
                        path={here}
                        action="policy-delete"
                        fields={{ policy_type: d.policyType }}
                        confirm={`Delete the ${name} PDF? The checkout stops linking it at once.`}
                        tone="danger"
                        label={`Delete the ${name} PDF`}
                      >
                        Delete
                      </ActionForm>
                    </td>
                  ) : null}
                </tr>
              );
            })}
          </Table>
        )}
        {p.canManage ? (
          <>
            <form
              id="policy-form"
              aria-labelledby="policy-upload-title"
              data-policy-upload={`/api/v1/dashboard/merchants/${p.ctx.merchant!.id}/checkout-policies`}
              data-max-bytes={String(POLICY_MAX_BYTES)}
              data-done={`${here}?done=policy-uploaded`}
              hidden
            >
              <h3 id="policy-upload-title">Upload a policy PDF</h3>
              <SelectField
                id="policy_upload_type"
                label="Policy"
                choices={Object.entries(policyNames).map(([value, label]) => ({ value, label }))}
                hint="A new PDF replaces the policy's current one."
              />
              <div class="field">
                <label for="policy_file">PDF file</label>
                <input id="policy_file" name="policy_file" type="file" accept="application/pdf,.pdf" required aria-describedby="policy_file-hint" />
                <p class="hint" id="policy_file-hint">
                  A PDF of at most {formatBytes(POLICY_MAX_BYTES)}.
                </p>
              </div>
              <p class="error" role="alert" id="policy-error" hidden />
              <div class="actions">
                <button type="submit">Upload PDF</button>
              </div>
            </form>
            <p class="hint" data-without-script>
              Uploading a policy PDF (at most {formatBytes(POLICY_MAX_BYTES)}) needs JavaScript in this browser: the file goes straight to storage. It can also
              be uploaded through the organization API (POST …/checkout-policies/{'{policyType}'}/upload).
            </p>
          </>
        ) : null}
      </section>
    </Page>
  );
}
