import fs from 'node:fs';
import path from 'node:path';
import { jsonToLex, type LexiconDoc, Lexicons } from '@atproto/lexicon';
import type { RecordedRequest } from '../../shared/networks/sandbox-kit/fake-server';

/** The published lexicons of what the Bluesky adapter sends (see README.md beside this file for their source). */
const lexicons = new Lexicons(JSON.parse(fs.readFileSync(path.join(__dirname, 'atproto-lexicons.json'), 'utf8')) as LexiconDoc[]);

/** What one XRPC procedure body sent to a PDS breaks in the atproto lexicons (empty when it conforms). */
export function atprotoViolations(req: RecordedRequest): string[] {
  const m = /^\/xrpc\/([a-z0-9.]+)$/i.exec(req.path);
  if (!m || req.method !== 'POST' || !lexicons.getDef(m[1])) return [];
  const nsid = m[1];
  const def = lexicons.getDef(nsid) as { type?: string; input?: { encoding?: string } };
  if (def.type !== 'procedure' || def.input?.encoding !== 'application/json') return [];
  const violations: string[] = [];
  try {
    lexicons.assertValidXrpcInput(nsid, jsonToLex(req.json));
  } catch (err) {
    violations.push(`${nsid} input: ${(err as Error).message}`);
  }
  const body = req.json as { collection?: string; record?: unknown } | undefined;
  if (nsid === 'com.atproto.repo.createRecord' && body?.collection && lexicons.getDef(body.collection)) {
    try {
      lexicons.assertValidRecord(body.collection, jsonToLex(body.record));
    } catch (err) {
      violations.push(`${body.collection} record: ${(err as Error).message}`);
    }
  }
  return violations;
}
