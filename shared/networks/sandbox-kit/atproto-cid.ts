import { createHash } from 'node:crypto';

const BASE32 = 'abcdefghijklmnopqrstuvwxyz234567';
/** Multicodec codes of the two content kinds a PDS names: raw bytes (blobs) and DAG-CBOR (records, commits). */
const CODEC = { raw: 0x55, 'dag-cbor': 0x71 } as const;

/**
 * A well-formed CIDv1 (sha2-256, multibase base32 "b…") derived from `seed`, as a PDS names blobs (`bafkrei…`) and
 * records (`bafyrei…`). The simulators hand these out so what the adapter echoes back (blob refs, strong refs) is
 * a CID the atproto lexicons accept, not a placeholder only our own code would take.
 */
export function atprotoCid(kind: keyof typeof CODEC, seed: string): string {
  const digest = createHash('sha256').update(seed).digest();
  const bytes = Buffer.concat([Buffer.from([0x01, CODEC[kind], 0x12, 0x20]), digest]);
  let out = 'b';
  let bits = 0;
  let value = 0;
  for (const byte of bytes) {
    value = ((value << 8) | byte) & 0xffff;
    bits += 8;
    while (bits >= 5) { out += BASE32[(value >>> (bits - 5)) & 31]; bits -= 5; }
  }
  if (bits > 0) out += BASE32[(value << (5 - bits)) & 31];
  return out;
}
