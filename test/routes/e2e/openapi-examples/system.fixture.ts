/** The records the request examples of the system route list (`shared/routes/docs/system.ts`) name, beside the base fixture's. */
import type { BaseFixture, FixtureIds } from './fixture.ts';

export async function systemFixture(_base: BaseFixture): Promise<FixtureIds> {
  return {};
}
