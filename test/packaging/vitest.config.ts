import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    reporters: ['default', ['json', { outputFile: '.reports/vitest.json' }]],
    // npm pack runs once per run; the test files share its tarballs.
    globalSetup: ['src/global-setup.ts'],
    testTimeout: 20_000,
    hookTimeout: 20_000,
  },
});
