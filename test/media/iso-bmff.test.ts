import { createFile, MP4BoxBuffer, Log, type Movie } from 'mp4box';
import { readIsoMovie } from '../../shared/media/iso-bmff';
import { readVideoInfo } from '../../shared/media/video-info';
import { buildMp4 } from '../support/mp4';

/**
 * The ISO BMFF header reader that replaced mp4box in the Lambda bundles reads what mp4box read: each file below is
 * parsed by both and the fields shared/media/video-info.ts uses must agree (mp4box stays a dev dependency as the
 * oracle).
 */
Log.error = () => undefined;

function mp4boxMovie(bytes: Uint8Array): Movie | undefined {
  let movie: Movie | undefined;
  const file = createFile();
  file.onReady = (info) => { movie = info; };
  file.onError = () => undefined;
  try {
    file.appendBuffer(MP4BoxBuffer.fromArrayBuffer(new Uint8Array(bytes).buffer, 0), true);
    file.flush();
  } catch { /* unreadable: no movie */ }
  return movie;
}

const summary = (m: { timescale: number; duration: number; videoTracks: Array<{ timescale: number; duration: number; track_width: number; track_height: number; video?: { width: number; height: number } }> } | undefined) =>
  m && { timescale: m.timescale, duration: m.duration, videoTracks: m.videoTracks.map((t) => ({ timescale: t.timescale, duration: t.duration, track_width: t.track_width, track_height: t.track_height, video: t.video && { width: t.video.width, height: t.video.height } })) };

const u32 = (n: number) => { const b = Buffer.alloc(4); b.writeUInt32BE(n); return b; };
/** Moves the moov box after the mdat (a file not "fast-started"). */
function moovLast(file: Buffer): Buffer {
  const ftypEnd = file.readUInt32BE(0);
  const moovEnd = ftypEnd + file.readUInt32BE(ftypEnd);
  return Buffer.concat([file.subarray(0, ftypEnd), file.subarray(moovEnd), file.subarray(ftypEnd, moovEnd)]);
}
/** The file with its video sample entry renamed (hvc1: another visual codec; 'zzzz': a type nobody knows). */
const entryRenamed = (file: Buffer, type: string) => { const c = Buffer.from(file); const at = c.indexOf('avc1', c.indexOf('stsd')); c.write(type, at, 'ascii'); return c; };
/** The file with a 64-bit ("largesize") mdat header. */
function largeMdat(file: Buffer): Buffer {
  const at = file.indexOf('mdat') - 4;
  const body = file.subarray(at + 8);
  const big = Buffer.concat([u32(1), Buffer.from('mdat'), Buffer.alloc(4), u32(16 + body.length), body]);
  return Buffer.concat([file.subarray(0, at), big]);
}

describe('ISO BMFF headers (same reading as mp4box)', () => {
  const files: Array<[string, Buffer]> = [
    ['a 12.5 s 1280x720 MP4', buildMp4({ seconds: 12.5, width: 1280, height: 720 })],
    ['a 3 s 1080x1920 MOV', buildMp4({ seconds: 3, width: 1080, height: 1920, brand: 'qt  ' })],
    ['moov after the mdat', moovLast(buildMp4({ seconds: 61, width: 640, height: 360, payloadBytes: 5000 }))],
    ['an HEVC sample entry', entryRenamed(buildMp4({ seconds: 2, width: 320, height: 240 }), 'hvc1')],
    ['an unknown sample entry (no video track)', entryRenamed(buildMp4({ seconds: 2, width: 320, height: 240 }), 'zzzz')],
    ['a 64-bit mdat', largeMdat(buildMp4({ seconds: 7, width: 800, height: 600 }))],
    ['headers cut short', buildMp4({ seconds: 5, width: 100, height: 100 }).subarray(0, 60)],
    ['no moov', Buffer.concat([buildMp4({ seconds: 1, width: 1, height: 1 }).subarray(0, 32), Buffer.from([0, 0, 0, 8]), Buffer.from('free')])],
  ];
  test.each(files)('%s', (_name, file) => {
    expect(summary(readIsoMovie(file))).toEqual(summary(mp4boxMovie(file)));
  });

  test('readVideoInfo reports the duration and frame size from those headers', () => {
    expect(readVideoInfo(buildMp4({ seconds: 12.5, width: 1280, height: 720 }))).toEqual({ container: 'mp4', duration_s: 12.5, width: 1280, height: 720 });
    expect(readVideoInfo(moovLast(buildMp4({ seconds: 61, width: 640, height: 360, brand: 'qt  ' })))).toEqual({ container: 'mov', duration_s: 61, width: 640, height: 360 });
  });
});
