/**
 * A merchant's onboarding page and its form. The form's fields become the organization API's onboarding submission
 * (`onboarding.fields.ts` says where each goes), checked by the same schema; each problem is shown beside its field.
 * The submission itself is the organizations service's, with its once-only condition.
 */
import * as v from 'valibot';
import { DomainError } from '../../domain/errors.ts';
import { onboardingStatusOf, type Merchant, type Role } from '../../domain/merchants.ts';
import { getOnboarding, submitOnboardingAsOwner } from '../../organizations/index.ts';
import { onboardingRequest } from '../../organizations/organizations.schemas.ts';
import type { HttpEvent, Reply } from '../../platform/http/types.ts';
import { plainMessage } from '../../platform/http/request-middleware.ts';
import { merchantPath } from '../kit/paths.ts';
import { pageContext, pageReply, seeOther, withDone } from '../kit/page.ts';
import { onboardingFields, type OnboardingField } from './onboarding.fields.ts';
import { OnboardingPage, type FieldProblem, type OnboardingValues } from './onboarding.tsx';

/** What the form was sent with, by field name. */
export type OnboardingForm = Readonly<Record<string, string | undefined>>;

/** The form's first values: what the merchant already says about itself. */
const prefilled = (m: Merchant): OnboardingValues => ({
  business_name: m.name,
  business_country: m.country ?? undefined,
  member_country: m.country ?? undefined,
  business_website: m.websiteUrl ?? undefined,
});

export async function onboardingPage(
  merchant: Merchant,
  role: Role,
  event: HttpEvent,
  done?: string,
  failed?: { values: OnboardingValues; problems: readonly FieldProblem[]; error: string; status: number },
): Promise<Reply> {
  const ctx = pageContext(event, merchant, role);
  const submitted = onboardingStatusOf(merchant) === 'submitted' ? await getOnboarding(merchant.id) : null;
  return pageReply(
    ctx,
    OnboardingPage({
      ctx,
      submitted,
      canSubmit: role === 'owner',
      values: failed?.values ?? prefilled(merchant),
      problems: failed?.problems ?? [],
      ...(failed ? { error: failed.error } : {}),
      ...(done ? { done } : {}),
    }),
    failed?.status ?? 200,
  );
}

/** An amount as a form takes it: digits, and a point before the decimals; no thousands separator. */
const AMOUNT_TEXT = /^\d{1,15}(\.\d+)?$/;

/** A field's value as the submission takes it: trimmed text, a number, a box ticked or not; blank optional fields left out. */
function submittedValue(f: OnboardingField, raw: string | undefined): unknown {
  if (f.kind === 'check') return raw !== undefined && raw !== '';
  const text = raw?.trim() ?? '';
  if (f.optional && text === '') return undefined;
  // A comma is refused, never dropped (`25000,50` is not 2,500,050): the text goes on as it is, which the schema refuses.
  if (f.kind === 'amount') return text === '' ? undefined : AMOUNT_TEXT.test(text) ? Number(text) : text;
  if (f.kind === 'currency' || f.kind === 'country') return text.toUpperCase();
  if (f.kind === 'tel') return text.replace(/[\s()-]/g, '');
  return text;
}

/** The submission the form describes (not yet checked). An optional phone left blank is no phone. */
export function submissionOf(form: OnboardingForm): Record<string, Record<string, unknown>> {
  const out: Record<string, Record<string, unknown>> = { business: {}, member: {}, account: {} };
  for (const f of onboardingFields) {
    const value = submittedValue(f, form[f.name]);
    const [section, key, part] = f.path;
    if (part === undefined) {
      if (value !== undefined) out[section]![key] = value;
      continue;
    }
    const group = (out[section]![key] ?? {}) as Record<string, unknown>;
    out[section]![key] = group;
    if (value !== undefined) group[part] = value;
  }
  const phone = out.member!.phone as Record<string, unknown>;
  if (Object.keys(phone).length === 0) delete out.member!.phone;
  return out;
}

/** The field a schema problem is about (by its path), or null for a problem of the whole form. */
function fieldOfIssue(path: string | null): OnboardingField | null {
  if (!path) return null;
  return onboardingFields.find((f) => f.path.join('.') === path) ?? onboardingFields.find((f) => path.startsWith(`${f.path.join('.')}.`)) ?? null;
}

/** The message of a problem for a person: a field left out or empty "must be filled in", any other as the API words it. */
const readable = (issue: v.BaseIssue<unknown>) => {
  const plain = plainMessage(issue);
  return plain === 'is required' || (issue.type === 'string' && issue.input === undefined) ? 'must be filled in' : plain;
};

export async function submitOnboardingWithForm(merchant: Merchant, role: Role, userId: string, form: OnboardingForm, event: HttpEvent): Promise<Reply> {
  const values: OnboardingValues = Object.fromEntries(onboardingFields.map((f) => [f.name, form[f.name]]));
  const parsed = v.safeParse(onboardingRequest, submissionOf(form));
  if (!parsed.success) {
    const problems: FieldProblem[] = [];
    for (const issue of parsed.issues) {
      const field = fieldOfIssue(v.getDotPath(issue));
      const message = field?.kind === 'amount' && typeof issue.input === 'string' ? 'must be a number like 25000 or 25000.50, with no comma' : readable(issue);
      // The first problem of a field is the one shown beside it.
      if (!problems.some((p) => p.field === (field?.name ?? null))) problems.push({ field: field?.name ?? null, message });
    }
    return onboardingPage(merchant, role, event, undefined, {
      values,
      problems,
      error: 'Some fields need another look: each says what is wrong.',
      status: 400,
    });
  }
  try {
    await submitOnboardingAsOwner(merchant, userId, parsed.output);
  } catch (e) {
    if (e instanceof DomainError && e.status < 500)
      return onboardingPage(merchant, role, event, undefined, { values, problems: [], error: e.message, status: e.status });
    throw e;
  }
  return seeOther(withDone(merchantPath(merchant.id), 'onboarding_submitted'));
}
