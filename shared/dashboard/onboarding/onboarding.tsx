/** @jsxImportSource hono/jsx */
/**
 * A merchant's onboarding page: the form (each field labelled, each problem beside its field and listed at the top,
 * linking to it), or, once submitted, what was submitted and when.
 */
import type { JSX } from 'hono/jsx/jsx-runtime';
import type { OnboardingSubmission } from '../../organizations/index.ts';
import { Money, Time } from '../kit/format.tsx';
import { countryChoices } from '../kit/countries.ts';
import { Csrf, Notice, Page, areaPath, merchantPath, type PageContext } from '../kit/layout.tsx';
import { businessTypes, onboardingFields, onboardingSections, type OnboardingField } from './onboarding.fields.ts';

/** What the form shows in its fields, by field name. */
export type OnboardingValues = Readonly<Record<string, string | undefined>>;

/** A problem of the form: the field it is about (null: the whole form) and what is wrong. */
export interface FieldProblem {
  field: string | null;
  message: string;
}

export interface OnboardingProps {
  ctx: PageContext;
  submitted: OnboardingSubmission | null;
  canSubmit: boolean;
  values: OnboardingValues;
  problems: readonly FieldProblem[];
  error?: string;
  done?: string;
}

const inputTypes: Partial<Record<OnboardingField['kind'], string>> = { url: 'url', date: 'date', tel: 'tel', 'tel-code': 'tel' };
const inputModes: Partial<Record<OnboardingField['kind'], 'decimal' | 'numeric' | 'tel' | 'url'>> = { amount: 'decimal', tel: 'tel', 'tel-code': 'tel' };

function FormField({ f, value, problem }: { f: OnboardingField; value: string | undefined; problem: FieldProblem | undefined }) {
  const hintId = f.hint ? `${f.name}-hint` : undefined;
  const errorId = problem ? `${f.name}-error` : undefined;
  const describedBy = [errorId, hintId].filter(Boolean).join(' ') || undefined;
  const common = { id: f.name, name: f.name, 'aria-describedby': describedBy, 'aria-invalid': problem ? 'true' : undefined };
  const label = `${f.label}${f.optional ? ' (optional)' : ''}`;
  if (f.kind === 'check') {
    return (
      <div class="check">
        <input type="checkbox" {...common} checked={value !== undefined && value !== ''} />
        <label for={f.name}>{f.label}</label>
      </div>
    );
  }
  let control: JSX.Element;
  if (f.kind === 'long') {
    control = (
      <textarea {...common} rows={4} maxlength={f.max} required={!f.optional}>
        {value ?? ''}
      </textarea>
    );
  } else if (f.kind === 'country' || f.kind === 'business-type') {
    const choices = f.kind === 'country' ? countryChoices() : businessTypes;
    control = (
      <select {...common} required={!f.optional}>
        <option value="">Choose…</option>
        {choices.map((c) => (
          <option value={c.value} selected={c.value === value}>
            {c.label}
          </option>
        ))}
      </select>
    );
  } else {
    control = (
      <input
        {...common}
        type={inputTypes[f.kind] ?? 'text'}
        value={value}
        required={!f.optional}
        maxlength={f.max ?? (f.kind === 'currency' ? 3 : undefined)}
        autocomplete={f.autocomplete}
        inputmode={inputModes[f.kind]}
      />
    );
  }
  return (
    <div class="field">
      <label for={f.name}>{label}</label>
      {problem ? (
        <p class="field-error" id={errorId}>
          {problem.message}
        </p>
      ) : null}
      {control}
      {f.hint ? (
        <p class="hint" id={hintId}>
          {f.hint}
        </p>
      ) : null}
    </div>
  );
}

const doneNotices: Readonly<Record<string, string>> = {};

export function OnboardingPage(p: OnboardingProps) {
  const merchantId = p.ctx.merchant!.id;
  return (
    <Page ctx={p.ctx} title="Onboarding" area="home">
      <Notice notice={p.done ? doneNotices[p.done] : undefined} error={p.error} />
      {p.submitted ? <Submitted s={p.submitted} /> : p.canSubmit ? <OnboardingFormView {...p} /> : <OnlyOwners merchantId={merchantId} />}
    </Page>
  );
}

function OnlyOwners({ merchantId }: { merchantId: string }) {
  return (
    <p>
      The onboarding form is not submitted yet. An owner of this merchant submits it: see who on the <a href={areaPath(merchantId, 'team')}>team</a> page.
    </p>
  );
}

function OnboardingFormView(p: OnboardingProps) {
  const merchantId = p.ctx.merchant!.id;
  const problemOf = (name: string) => p.problems.find((q) => q.field === name);
  const labelOf = (name: string | null) => onboardingFields.find((f) => f.name === name)?.label;
  return (
    <>
      <p>
        As the seller of record, the platform sells on this merchant's behalf: it needs to know the business and the person who represents it. The form is
        submitted once; going live comes after it.
      </p>
      {p.problems.length ? (
        <ul class="problems" aria-label="What to fix">
          {p.problems.map((q) => (
            <li>{q.field ? <a href={`#${q.field}`}>{`${labelOf(q.field)}: ${q.message}`}</a> : q.message}</li>
          ))}
        </ul>
      ) : null}
      <form method="post" action={merchantPath(merchantId, '/onboarding')} novalidate>
        <Csrf ctx={p.ctx} />
        <input type="hidden" name="action" value="submit" />
        {onboardingSections.map((section) => (
          <fieldset>
            <legend>{section.title}</legend>
            {onboardingFields
              .filter((f) => f.path[0] === section.key)
              .map((f) => (
                <FormField f={f} value={p.values[f.name]} problem={problemOf(f.name)} />
              ))}
          </fieldset>
        ))}
        <div class="actions">
          <button type="submit">Submit onboarding</button>
        </div>
      </form>
    </>
  );
}

/** What was submitted: enough to recognise it, never the whole record (tax IDs and birth dates stay out of the page). */
function Submitted({ s }: { s: OnboardingSubmission }) {
  return (
    <section class="panel" aria-labelledby="submitted">
      <h2 id="submitted">Submitted</h2>
      <p>
        The onboarding form was submitted on <Time iso={s.submittedAt} />. It is submitted once; to change it, contact the platform.
      </p>
      <dl class="facts">
        <dt>Business</dt>
        <dd>
          {s.business.name} ({s.business.doingBusinessAs}), {s.business.city}, {s.business.country}
        </dd>
        <dt>Website</dt>
        <dd>{s.business.website}</dd>
        <dt>Representative</dt>
        <dd>
          {s.member.firstName} {s.member.lastName}
        </dd>
        <dt>Expected monthly sales</dt>
        <dd>
          <Money minor={s.business.salesVolume} currency={s.account.reportCurrency} />
        </dd>
        <dt>Payout currency</dt>
        <dd>{s.account.payoutCurrency}</dd>
      </dl>
    </section>
  );
}
