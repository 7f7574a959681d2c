/**
 * Builds small but well-formed ISO BMFF files (MP4 / MOV) for media tests: ftyp + moov (mvhd, one video trak with
 * tkhd, mdhd, hdlr 'vide', an avc1 sample entry) + an mdat, with the duration and the frame size asked for. Written
 * box by box from ISO/IEC 14496-12 so the parser under test reads a file it did not write.
 */

const u32 = (n: number) => { const b = Buffer.alloc(4); b.writeUInt32BE(n >>> 0); return b; };
const u16 = (n: number) => { const b = Buffer.alloc(2); b.writeUInt16BE(n); return b; };
const zeros = (n: number) => Buffer.alloc(n);
const box = (type: string, ...parts: Buffer[]) => {
  const body = Buffer.concat(parts);
  return Buffer.concat([u32(8 + body.length), Buffer.from(type, 'ascii'), body]);
};
const full = (type: string, version: number, flags: number, ...parts: Buffer[]) =>
  box(type, Buffer.from([version, (flags >> 16) & 255, (flags >> 8) & 255, flags & 255]), ...parts);
const matrix = () => Buffer.concat([u32(0x00010000), u32(0), u32(0), u32(0), u32(0x00010000), u32(0), u32(0), u32(0), u32(0x40000000)]);

export interface Mp4Options {
  seconds: number;
  width: number;
  height: number;
  /** 'isom' (MP4, default) or 'qt  ' (QuickTime MOV). */
  brand?: 'isom' | 'qt  ';
  /** Extra mdat bytes, to make a file of a given size. */
  payloadBytes?: number;
}

export function buildMp4({ seconds, width, height, brand = 'isom', payloadBytes = 16 }: Mp4Options): Buffer {
  const timescale = 1000;
  const duration = Math.round(seconds * timescale);
  const ftyp = box('ftyp', Buffer.from(brand, 'ascii'), u32(0x200), Buffer.from(brand === 'isom' ? 'isomiso2avc1mp41' : 'qt  ', 'ascii'));
  const mvhd = full('mvhd', 0, 0, u32(0), u32(0), u32(timescale), u32(duration), u32(0x00010000), u16(0x0100), zeros(10), matrix(), zeros(24), u32(2));
  const tkhd = full('tkhd', 0, 3, u32(0), u32(0), u32(1), u32(0), u32(duration), zeros(8), u16(0), u16(0), u16(0), u16(0), matrix(),
    u32(width * 65536), u32(height * 65536));
  const mdhd = full('mdhd', 0, 0, u32(0), u32(0), u32(timescale), u32(duration), u16(0x55c4), u16(0));
  const hdlr = full('hdlr', 0, 0, u32(0), Buffer.from('vide', 'ascii'), zeros(12), Buffer.from('VideoHandler\0', 'ascii'));
  const avcC = box('avcC', Buffer.from([1, 0x42, 0xc0, 0x1e, 0xff, 0xe0, 0x00]));
  const avc1 = box('avc1', zeros(6), u16(1), zeros(16), u16(width), u16(height), u32(0x00480000), u32(0x00480000), u32(0), u16(1),
    zeros(32), u16(0x18), u16(0xffff), avcC);
  const stsd = full('stsd', 0, 0, u32(1), avc1);
  const stbl = box('stbl', stsd, full('stts', 0, 0, u32(1), u32(1), u32(duration)), full('stsc', 0, 0, u32(1), u32(1), u32(1), u32(1)),
    full('stsz', 0, 0, u32(0), u32(1), u32(payloadBytes)), full('stco', 0, 0, u32(1), u32(0)));
  const minf = box('minf', full('vmhd', 0, 1, zeros(8)), box('dinf', full('dref', 0, 0, u32(1), full('url ', 0, 1))), stbl);
  const trak = box('trak', tkhd, box('mdia', mdhd, hdlr, minf));
  const moov = box('moov', mvhd, trak);
  return Buffer.concat([ftyp, moov, box('mdat', zeros(payloadBytes))]);
}
