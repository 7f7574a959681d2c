import fs from 'node:fs';
import type { RouteDef } from '../../shared/http/route';
import { tableCallGuard, type TableCall } from '../../shared/adapters/dynamodb/table-guard';
import { allowsCall, TABLE_READ_ACTIONS, TABLE_WRITE_ACTIONS, tableStatementsOf, type TableStatement } from '../table-access';

/**
 * The local stand-in for the route functions' IAM table policies: runs a route's handler with a check that refuses
 * (AccessDeniedException, as DynamoDB answers) any table call the route's policy (infra/table-access.ts) would not
 * allow in AWS. TABLE_ACCESS_GUARD=off turns it off; TABLE_ACCESS_RECORD=<file> only records the calls there.
 */
/**
 * The route's table statements, plus (routes with the `scheduler` grant) the local scheduler's timers: locally the
 * EventBridge Scheduler stand-in keeps its `TIMER#` items in the table.
 */
export function localTableStatements(route: RouteDef): TableStatement[] {
  const timers: TableStatement[] = route.grants.includes('scheduler') ? [{ actions: [...TABLE_READ_ACTIONS, ...TABLE_WRITE_ACTIONS], prefixes: ['TIMER#'] }] : [];
  return [...tableStatementsOf(route), ...timers];
}

export function withTablePolicy<T>(route: RouteDef, run: () => Promise<T>): Promise<T> {
  const mode = process.env.TABLE_ACCESS_GUARD;
  const record = process.env.TABLE_ACCESS_RECORD;
  if (mode === 'off' && !record) return run();
  const statements = localTableStatements(route);
  return tableCallGuard.run((call: TableCall) => {
    if (record) {
      fs.appendFileSync(record, `${route.id}\t${call.action}\t${call.leadingKeys.join(',')}\t${allowsCall(statements, call) ? 'ok' : 'DENIED'}\n`);
      return;
    }
    if (allowsCall(statements, call)) return;
    const denied = Object.assign(
      new Error(`The function of ${route.id} is not authorized to perform ${call.action} on ${call.leadingKeys.join(', ') || 'the table'} (infra/table-access.ts)`),
      { name: 'AccessDeniedException', $metadata: { httpStatusCode: 400 } },
    );
    process.stderr.write(`local runtime: ${denied.message}\n`);
    throw denied;
  }, run);
}
