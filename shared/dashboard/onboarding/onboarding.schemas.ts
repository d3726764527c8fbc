/**
 * The onboarding pages' form body, apart from their routes: a route object then holds no call,
 * so a function leaves out the area's other routes (and these schemas, where it uses none of them).
 */
import * as v from 'valibot';
import { formText, pageForm } from '../pages.schemas.ts';
import { ONBOARDING_FIELD_MAX, onboardingFields } from './onboarding.fields.ts';

export const onboardingFormBody = pageForm({
  action: v.literal('submit'),
  ...Object.fromEntries(onboardingFields.map((f) => [f.name, formText(ONBOARDING_FIELD_MAX)])),
});
