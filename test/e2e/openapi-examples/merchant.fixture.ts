/** The records the request examples of the merchant route list (`shared/routes/docs/merchant.ts`) name, beside the base fixture's. */
import type { BaseFixture, FixtureIds } from './fixture.ts';

export async function merchantFixture(_base: BaseFixture): Promise<FixtureIds> {
  return {};
}
