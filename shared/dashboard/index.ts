/** The dashboard module's front door: what other modules may use (the pages' kit that other pages reuse). */
export { dashboardCsp } from './kit/page.ts';
