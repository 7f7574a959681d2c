/**
 * Stand-in for `@modelcontextprotocol/server/_shims` in the Lambda bundle (infra/bundling.ts alias). The SDK's own
 * Node shim carries an AJV-backed JSON Schema validator (~100 KB minified), used only to check form-elicitation
 * answers; this server asks for none and passes its own validator (server.ts), so the default is never built. It
 * refuses to validate rather than accepting blindly, should a future SDK path reach it.
 */
import process from 'node:process';

export class DefaultJsonSchemaValidator {
  getValidator(): (input: unknown) => { valid: false; data: undefined; errorMessage: string } {
    return () => ({ valid: false, data: undefined, errorMessage: 'JSON Schema validation is not available in this bundle' });
  }
}

export { process };
