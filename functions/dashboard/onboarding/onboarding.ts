import { route } from '../../../shared/access/auth-session-page.ts';
import { onboardingPage } from '../../../shared/dashboard/onboarding/onboarding.service.ts';
import * as pages from '../../../shared/dashboard/onboarding/routes.ts';

export const handler = route(pages.onboardingPage, ({ merchant, role, query, event }) => onboardingPage(merchant, role, event, query.done));
