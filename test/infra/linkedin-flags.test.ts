/**
 * The LinkedIn products an app was granted reach every function's environment from CDK context: organisation pages
 * (-c linkedinOrganizations=true → LINKEDIN_ORGANIZATIONS) and member post analytics (-c linkedinPostAnalytics=true →
 * LINKEDIN_POST_ANALYTICS). Off unless set. Synthesised without bundling or template validation.
 */
process.env.CDK_VALIDATION = 'false';

import { App } from 'aws-cdk-lib';
import { buildStacks } from '../../bin/app';

const env = (context: Record<string, unknown>) => buildStacks(new App({ context: { 'aws:cdk:bundling-stacks': [], mailFrom: 'no-reply@mail.example.org', ...context } })).api.functionEnvironment;

describe('LinkedIn product flags in the stacks', () => {
  it('are off by default: neither variable is set', () => {
    const e = env({});
    expect([e.LINKEDIN_ORGANIZATIONS, e.LINKEDIN_POST_ANALYTICS]).toEqual([undefined, undefined]);
  });

  it('each context flag sets its own variable', () => {
    expect(env({ linkedinPostAnalytics: 'true' })).toMatchObject({ LINKEDIN_POST_ANALYTICS: '1' });
    expect(env({ linkedinPostAnalytics: 'true' }).LINKEDIN_ORGANIZATIONS).toBeUndefined();
    expect(env({ linkedinOrganizations: 'true', linkedinPostAnalytics: 'true' })).toMatchObject({ LINKEDIN_ORGANIZATIONS: '1', LINKEDIN_POST_ANALYTICS: '1' });
  });

  it('a value other than true or false is refused before anything is synthesised', () => {
    expect(() => env({ linkedinPostAnalytics: 'yes' })).toThrow('Invalid linkedinPostAnalytics "yes": true or false');
  });
});
