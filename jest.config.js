/** Jest runs TypeScript transpile-only (types are checked by `tsc --noEmit` in `npm test`). */
module.exports = {
  testEnvironment: 'node',
  roots: ['<rootDir>/test'],
  testMatch: ['**/*.test.ts'],
  transform: {
    // @swc/jest: the same transpile-only output, in a fraction of ts-jest's time on a cold cache (CI's clean clone).
    '^.+\\.[tj]sx?$': ['@swc/jest', { jsc: { parser: { syntax: 'typescript' }, target: 'es2022' }, module: { type: 'commonjs' } }],
  },
  // ESM-only packages compiled to CommonJS for jest (cookie: light-my-request's, behind fauxqs's in-process transport).
  transformIgnorePatterns: ['/node_modules/(?!(@middy|nostr-tools|@noble|@scure|p-limit|yocto-queue|fauxqs|@atproto|multiformats|light-my-request/node_modules/cookie|cookie)/)'],
  // fauxqs exports only an ESM "import" entry; map it to its file so the transform above compiles it.
  moduleNameMapper: {
    '^fauxqs$': '<rootDir>/node_modules/fauxqs/dist/app.js',
    // multiformats (under @atproto/lexicon) exports only "import" entries: map them to its files, compiled as above.
    '^multiformats$': '<rootDir>/node_modules/multiformats/dist/src/index.js',
    '^multiformats/(.*)$': '<rootDir>/node_modules/multiformats/dist/src/$1.js',
  },
  setupFiles: ['<rootDir>/test/setup-env.ts'],
  // The IAM simulation (test/support/iam): each function's synthesized policy, once per run; every AWS request a
  // function makes under the local runtime is decided against it, and a denial fails the test.
  globalSetup: '<rootDir>/test/support/iam/global-setup.ts',
  setupFilesAfterEnv: ['<rootDir>/test/support/iam/check.ts'],
  // A timeout catches a hang, never slowness: no test asserts elapsed time, and on the shared 2-core machine under
  // load the longest end-to-end tests take several times their idle duration.
  testTimeout: 120_000,
  maxWorkers: 2,
};
