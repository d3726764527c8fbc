/**
 * The customer portal: the portal-session bodies and records of the organization and merchant APIs, the merchant's
 * portal settings, and what the portal's pages take (forms whose fields are bounded strings, see the dashboard's).
 */
import * as v from 'valibot';
import { doneQuery, formText, pageForm } from '../dashboard/pages.schemas.ts';
import { httpsUrl, isoTime, nullableIsoTime } from '../platform/http/schemas/common.ts';
import { named } from '../platform/http/schemas/named.ts';
import { objectEnvelope } from '../platform/http/schemas/organization.ts';

/** What a customer's cancellation from the portal does: the merchant's choice. */
export const portalCancelPolicies = ['at-next-renewal', 'now', 'now-prorated'] as const;
export type PortalCancelPolicy = (typeof portalCancelPolicies)[number];

/** Where the portal's "Back" link leads: https, or on a local stack a loopback http address. */
const returnUrl = v.union(
  [httpsUrl, v.pipe(v.string(), v.maxCodePoints(2048), v.regex(/^http:\/\/(localhost|127\.0\.0\.1)(:\d+)?(\/|$)/))],
  'must be an https URL',
);

export const createPortalSessionRequest = named('CreatePortalSessionRequest', v.strictObject({ returnUrl: v.optional(returnUrl) }));

export const portalSession = named(
  'PortalSession',
  v.strictObject({
    id: v.pipe(v.string(), v.regex(/^pls_[0-9a-f]{32}$/)),
    /** Opens the portal once, signed in as the customer; works until `expiresAt`. */
    url: v.pipe(v.string(), v.url()),
    expiresAt: isoTime,
  }),
);

export const portalSessionResponse = objectEnvelope('PortalSessionResponse', portalSession);

export const portalSettings = named(
  'PortalSettings',
  v.strictObject({
    allowCancel: v.boolean(),
    cancelPolicy: v.picklist(portalCancelPolicies),
    allowPause: v.boolean(),
    allowPaymentMethodUpdate: v.boolean(),
    allowReactivation: v.boolean(),
    showInvoices: v.boolean(),
    updatedAt: nullableIsoTime,
  }),
);

export const portalSettingsResponse = objectEnvelope('PortalSettingsResponse', portalSettings);

const flag = v.optional(v.boolean('must be true or false'));

export const updatePortalSettingsRequest = named(
  'UpdatePortalSettingsRequest',
  v.pipe(
    v.strictObject({
      allowCancel: flag,
      cancelPolicy: v.optional(v.picklist(portalCancelPolicies, `must be one of ${portalCancelPolicies.join(', ')}`)),
      allowPause: flag,
      allowPaymentMethodUpdate: flag,
      allowReactivation: flag,
      showInvoices: flag,
    }),
    v.check((o) => Object.values(o).some((x) => x !== undefined), 'must set at least one setting'),
  ),
);

// The pages.

/** Opening a link: its button's post (the token is in the path; the one field says what the form is). */
export const portalOpenForm = v.object({ open: v.literal('portal') });
export const portalDoneQuery = doneQuery;
/** The sign-in form: the customer's e-mail address (checked by the page, which shows it again with the reason). */
export const portalSignInForm = v.object({ email: v.pipe(v.string(), v.maxCodePoints(254)) });

/** The reasons a customer may give (the spec's, but those only the merchant or the platform give). */
export const portalCancelReasons = ['did-not-use', 'did-not-want', 'too-expensive', 'missing-features', 'bugs-or-problems', 'other'] as const;

/** A subscription's cancellation forms: cancel (with a reason and a comment) or undo a scheduled cancellation. */
export const portalCancelForm = pageForm({
  action: v.picklist(['cancel', 'undo-cancel']),
  reason: v.optional(v.picklist(portalCancelReasons)),
  comment: formText(255),
});

/** A subscription's pause forms: pause it, or resume it. */
export const portalPauseForm = pageForm({ action: v.picklist(['pause', 'resume']) });

/** A subscription's reactivation form: its button alone. */
export const portalReactivateForm = pageForm({});

export const portalSignOutForm = pageForm({});

/** The card form: the hosted fields' token (`tok_…`), put in by the page's script. */
export const portalPaymentMethodForm = pageForm({ token: v.pipe(v.string(), v.maxCodePoints(100)) });

/** The dashboard's portal settings form: a ticked checkbox is sent as `on`, an unticked one not at all. */
const checkbox = v.optional(v.literal('on'));
export const dashboardPortalSettingsForm = pageForm({
  allowCancel: checkbox,
  allowPause: checkbox,
  allowReactivation: checkbox,
  allowPaymentMethodUpdate: checkbox,
  showInvoices: checkbox,
  cancelPolicy: v.picklist(portalCancelPolicies),
});

export const dashboardPortalLinkForm = pageForm({});

/**
 * The invoices page's query: which page of the list (`?page=`, from 1). Marked pure and kept last, so a bundle without
 * the page drops it whole.
 */
export const portalInvoicesQuery = /* @__PURE__ */ v.object({ page: /* @__PURE__ */ formText(6) });
