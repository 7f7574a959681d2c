import { NestedStack, type Stack } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';

/**
 * A stack's template with the resources of its nested stacks merged in (the API stack deploys its route functions
 * in nested stacks), so assertions see every resource the stack deploys. Logical ids are unique per construct path.
 */
export function templateWithNested(stack: Stack): Template {
  const parent = Template.fromStack(stack).toJSON() as { Resources: Record<string, unknown> };
  const nested = stack.node.findAll().filter((c): c is NestedStack => c instanceof NestedStack);
  const resources = Object.assign({}, parent.Resources, ...nested.map((n) => (Template.fromStack(n).toJSON() as { Resources: Record<string, unknown> }).Resources));
  return Template.fromJSON({ ...parent, Resources: resources });
}
