import { route } from '../../../shared/access/auth-none-page.ts';
import { signUpWithForm } from '../../../shared/dashboard/access/forms.service.ts';
import * as pages from '../../../shared/dashboard/access/routes.ts';

export const handler = route(pages.signUpForm, ({ body, event }) => signUpWithForm(body, event));
