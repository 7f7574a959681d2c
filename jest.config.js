/** Jest runs TypeScript transpile-only (types are checked by `tsc --noEmit` in `npm test`). */
module.exports = {
  testEnvironment: 'node',
  roots: ['<rootDir>/test'],
  testMatch: ['**/*.test.ts'],
  transform: {
    '^.+\\.[tj]sx?$': ['ts-jest', { isolatedModules: true, tsconfig: { module: 'commonjs', allowJs: true, esModuleInterop: true } }],
  },
  // ESM-only packages compiled to CommonJS for jest.
  transformIgnorePatterns: ['/node_modules/(?!(@middy|nostr-tools|@noble|@scure|p-limit|yocto-queue|fauxqs)/)'],
  setupFiles: ['<rootDir>/test/setup-env.ts'],
  testTimeout: 30000,
  maxWorkers: 2,
};
