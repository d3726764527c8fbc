import { route } from '../../../shared/access/auth-session-page.ts';
import { submitOnboardingWithForm } from '../../../shared/dashboard/onboarding/onboarding.service.ts';
import * as pages from '../../../shared/dashboard/onboarding/routes.ts';

export const handler = route(pages.onboardingForm, ({ merchant, role, principal, body, event }) =>
  submitOnboardingWithForm(merchant, role, principal.userId, body, event),
);
