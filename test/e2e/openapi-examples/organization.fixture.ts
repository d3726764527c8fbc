/** The records the request examples of the organization route list (`shared/routes/docs/organization.ts`) name, beside the base fixture's. */
import type { BaseFixture, FixtureIds } from './fixture.ts';

export async function organizationFixture(_base: BaseFixture): Promise<FixtureIds> {
  return {};
}
