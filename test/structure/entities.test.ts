import fs from 'node:fs';
import path from 'node:path';

/*
 * The DynamoDB stores write through typed entities (shared/adapters/dynamodb/entity.ts): keys from the key catalogue,
 * the format version and the read-back in one place. A store that builds its own Put, Update or Delete request
 * fails here.
 */

const dir = path.resolve(__dirname, '../../shared/adapters/dynamodb');

/** The table's plumbing, not stores. */
const PLUMBING = ['client.ts', 'conditions.ts', 'entity.ts', 'keys.ts', 'table-definition.ts'];

const stores = fs.readdirSync(dir).filter((f) => f.endsWith('.ts') && !PLUMBING.includes(f));

describe('DynamoDB stores write through entities', () => {
  test.each(stores)('%s builds no Put, Update or Delete request of its own', (file) => {
    const src = fs.readFileSync(path.join(dir, file), 'utf8');
    expect(src.match(/new (Put|Update|Delete|BatchWrite|TransactWrite)Command\(/g) ?? []).toEqual([]);
  });

  test('every store of the folder is checked (a rename cannot drop one from the check)', () => {
    expect(stores.length).toBeGreaterThanOrEqual(26);
  });
});
