/**
 * The dashboard's onboarding form, field by field: each form field's name, its label, and where its value goes in the
 * organization API's onboarding submission (`OnboardingSubmissionRequest`), so that the page is validated by that very
 * schema and each of its problems is shown beside the field it names. No rendering here: the route's body reads it.
 */
import { onboardingLimits } from '../../organizations/organizations.schemas.ts';

const B = onboardingLimits.business;
const M = onboardingLimits.member;

export type FieldKind = 'text' | 'long' | 'country' | 'currency' | 'amount' | 'date' | 'url' | 'tel-code' | 'tel' | 'check' | 'business-type';

export interface OnboardingField {
  /** The form field's name (and the input's id). */
  readonly name: string;
  readonly label: string;
  /** Where the value goes in the submission. */
  readonly path: readonly [section: 'business' | 'member' | 'account', key: string, part?: string];
  readonly kind: FieldKind;
  readonly max?: number;
  /** A field the submission may leave out (blank is sent as absent). */
  readonly optional?: boolean;
  readonly hint?: string;
  readonly autocomplete?: string;
}

export const onboardingSections = [
  { key: 'business', title: 'The business' },
  { key: 'member', title: 'The person representing it' },
  { key: 'account', title: 'Reports and payouts' },
] as const;

export const onboardingFields: readonly OnboardingField[] = [
  { name: 'business_name', label: 'Legal name', path: ['business', 'name'], kind: 'text', max: B.name, autocomplete: 'organization' },
  {
    name: 'business_dba',
    label: 'Doing business as',
    path: ['business', 'doingBusinessAs'],
    kind: 'text',
    max: B.doingBusinessAs,
    hint: 'The name buyers know.',
  },
  { name: 'business_type', label: 'Legal form', path: ['business', 'type'], kind: 'business-type', max: B.type },
  { name: 'business_category', label: 'Category', path: ['business', 'category'], kind: 'text', max: B.category, hint: 'Like software, education or design.' },
  {
    name: 'business_description',
    label: 'What you sell',
    path: ['business', 'productAndServiceDescription'],
    kind: 'long',
    max: B.productAndServiceDescription,
  },
  { name: 'business_website', label: 'Website', path: ['business', 'website'], kind: 'url', hint: 'An https address where buyers see what you sell.' },
  { name: 'business_tax_id', label: 'Tax ID', path: ['business', 'taxId'], kind: 'text', max: B.taxId },
  { name: 'business_registration_number', label: 'Registration number', path: ['business', 'registrationNumber'], kind: 'text', max: B.registrationNumber },
  {
    name: 'business_payment_reference',
    label: 'Statement reference',
    path: ['business', 'paymentReference'],
    kind: 'text',
    max: B.paymentReference,
    hint: "What your payouts' bank statements say.",
  },
  { name: 'business_address', label: 'Address', path: ['business', 'address'], kind: 'text', max: B.address, autocomplete: 'street-address' },
  { name: 'business_city', label: 'City', path: ['business', 'city'], kind: 'text', max: B.city, autocomplete: 'address-level2' },
  { name: 'business_state', label: 'State or region', path: ['business', 'state'], kind: 'text', max: B.state, autocomplete: 'address-level1' },
  { name: 'business_zip', label: 'Postal code', path: ['business', 'zip'], kind: 'text', max: B.zip, autocomplete: 'postal-code' },
  { name: 'business_country', label: 'Country', path: ['business', 'country'], kind: 'country' },
  { name: 'business_phone_code', label: 'Phone country code', path: ['business', 'phone', 'countryCode'], kind: 'tel-code', hint: 'Like +1 or +44.' },
  { name: 'business_phone_number', label: 'Phone number', path: ['business', 'phone', 'number'], kind: 'tel', hint: '4 to 15 digits.' },
  {
    name: 'business_sales_volume',
    label: 'Expected monthly sales',
    path: ['business', 'salesVolume'],
    kind: 'amount',
    hint: 'In the report currency below, like 25000.',
  },
  { name: 'business_is_startup', label: 'The business is a startup', path: ['business', 'isStartup'], kind: 'check' },
  { name: 'business_public', label: 'The business is publicly traded', path: ['business', 'public'], kind: 'check' },
  {
    name: 'business_restricted_items',
    label: 'It sells items the card networks restrict',
    path: ['business', 'sellsItemsIllegalInDefaultGateway'],
    kind: 'check',
  },
  { name: 'member_first_name', label: 'First name', path: ['member', 'firstName'], kind: 'text', max: M.firstName, autocomplete: 'given-name' },
  { name: 'member_last_name', label: 'Last name', path: ['member', 'lastName'], kind: 'text', max: M.lastName, autocomplete: 'family-name' },
  { name: 'member_date_of_birth', label: 'Date of birth', path: ['member', 'dateOfBirth'], kind: 'date', optional: true, autocomplete: 'bday' },
  { name: 'member_address', label: 'Address', path: ['member', 'address'], kind: 'text', max: M.address },
  { name: 'member_city', label: 'City', path: ['member', 'city'], kind: 'text', max: M.city },
  { name: 'member_state', label: 'State or region', path: ['member', 'state'], kind: 'text', max: M.state, optional: true },
  { name: 'member_zip', label: 'Postal code', path: ['member', 'zip'], kind: 'text', max: M.zip, optional: true },
  { name: 'member_country', label: 'Country', path: ['member', 'country'], kind: 'country' },
  { name: 'member_phone_code', label: 'Phone country code', path: ['member', 'phone', 'countryCode'], kind: 'tel-code', optional: true },
  { name: 'member_phone_number', label: 'Phone number', path: ['member', 'phone', 'number'], kind: 'tel', optional: true },
  {
    name: 'account_report_currency',
    label: 'Report currency',
    path: ['account', 'reportCurrency'],
    kind: 'currency',
    hint: 'Three letters, like USD or EUR: the currency of your reports.',
  },
  {
    name: 'account_payout_currency',
    label: 'Payout currency',
    path: ['account', 'payoutCurrency'],
    kind: 'currency',
    hint: 'Three letters: the currency you are paid out in.',
  },
];

/** The longest text any field takes (the route bounds every field by it; the schema checks each field's own limit). */
export const ONBOARDING_FIELD_MAX = Math.max(...onboardingFields.map((f) => f.max ?? 0), 2000);

/** The legal forms offered (the submission's `type` is free text; these are the values the form sends). */
export const businessTypes = [
  { value: 'sole_proprietorship', label: 'Sole proprietorship' },
  { value: 'llc', label: 'Limited liability company' },
  { value: 'corporation', label: 'Corporation' },
  { value: 'partnership', label: 'Partnership' },
  { value: 'non_profit', label: 'Non-profit' },
] as const;
