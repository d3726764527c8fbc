/**
 * The two deployments and their modes: `sandbox` (the organization API's "stage") and `live` ("production"), and the
 * mode a key, token or session is bound to on each (`test` on sandbox, `live` on live).
 */
export type Stage = 'sandbox' | 'live';
export type Mode = 'test' | 'live';

export const modeOfStage = (s: Stage): Mode => (s === 'live' ? 'live' : 'test');
