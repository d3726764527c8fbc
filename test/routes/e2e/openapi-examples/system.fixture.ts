/** The records the request examples of the system route list (the `system` list of `shared/routes/docs/index.ts`) name, beside the base fixture's. */
import type { BaseFixture, FixtureIds } from './fixture.ts';

export async function systemFixture(_base: BaseFixture): Promise<FixtureIds> {
  return {};
}
