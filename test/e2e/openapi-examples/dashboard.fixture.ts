/** The records the request examples of the dashboard route list (`shared/routes/docs/dashboard.ts`) name, beside the base fixture's. */
import type { BaseFixture, FixtureIds } from './fixture.ts';

export async function dashboardFixture(_base: BaseFixture): Promise<FixtureIds> {
  return {};
}
