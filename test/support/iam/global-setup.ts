/**
 * jest globalSetup: the functions' synthesized policies, once per run (from the cache while infra is unchanged),
 * for the IAM simulation of every test file (./check.ts).
 */
import { cachedPolicies } from './policies';

export default function globalSetup(): void {
  process.env.IAM_POLICIES_FILE = cachedPolicies().file;
}
