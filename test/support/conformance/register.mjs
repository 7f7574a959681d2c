// `node --import ./test/support/conformance/register.mjs …/conformance/dist/index.js`: runs the CLI on Node 20.
import { register } from 'node:module';
register('./hooks.mjs', import.meta.url);
