import { defineConfig } from 'vitest/config';
import base from './vitest.config.ts';

/** `npm run test:quick`: the unit tests alone, without a local stack (see test/quick-setup.ts). */
export default defineConfig({ test: { ...base.test, include: ['test/*/unit/*.test.ts'], globalSetup: ['test/quick-setup.ts'] } });
