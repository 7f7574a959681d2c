/**
 * The few ISO BMFF (MP4 / MOV, ISO/IEC 14496-12) headers the media checks need, read box by box: the movie header
 * (mvhd: timescale, duration) and, per track, its header (tkhd: frame size), media header (mdhd: timescale,
 * duration), handler (hdlr) and first sample entry (stsd: a visual entry's width and height). It replaces mp4box
 * (GPAC's MP4Box.js, ~180 KB in the publish worker's bundle) and reports what mp4box's `getInfo()` reported for the
 * fields shared/media/video-info.ts reads (test/media/iso-bmff.test.ts compares the two on the same files).
 */

export interface IsoTrack {
  /** The media header's (mdhd) timescale and duration. */
  timescale: number;
  duration: number;
  /** The track header's (tkhd) frame size, 16.16 fixed point made a number. */
  track_width: number;
  track_height: number;
  /** A visual sample entry's frame size (video tracks). */
  video?: { width: number; height: number };
}

export interface IsoMovie {
  /** The movie header's (mvhd) timescale and duration. */
  timescale: number;
  duration: number;
  videoTracks: IsoTrack[];
}

interface BoxRef { type: string; start: number; body: number; end: number }

/** The boxes inside [from, to): type, where its body starts and where it ends; stops at a box that does not fit. */
function boxes(view: DataView, from: number, to: number): BoxRef[] {
  const out: BoxRef[] = [];
  let at = from;
  while (at + 8 <= to) {
    let size = view.getUint32(at);
    const type = String.fromCharCode(view.getUint8(at + 4), view.getUint8(at + 5), view.getUint8(at + 6), view.getUint8(at + 7));
    let body = at + 8;
    if (size === 1) {
      if (at + 16 > to) break;
      size = Number(view.getBigUint64(at + 8));
      body = at + 16;
    } else if (size === 0) {
      size = to - at;
    }
    if (size < body - at || at + size > to) break;
    out.push({ type, start: at, body, end: at + size });
    at += size;
  }
  return out;
}

const child = (view: DataView, parent: BoxRef | undefined, type: string): BoxRef | undefined =>
  parent ? boxes(view, parent.body, parent.end).find((b) => b.type === type) : undefined;

/** A full box's time fields: version 1 has 64-bit creation/modification times and duration, version 0 32-bit. */
function times(view: DataView, box: BoxRef): { timescale: number; duration: number } | undefined {
  const v1 = view.getUint8(box.body) === 1;
  const need = v1 ? 4 + 16 + 4 + 8 : 4 + 8 + 4 + 4;
  if (box.body + need > box.end) return undefined;
  const at = box.body + 4 + (v1 ? 16 : 8);
  return { timescale: view.getUint32(at), duration: v1 ? Number(view.getBigUint64(at + 4)) : view.getUint32(at + 4) };
}

/** Sample entry types ISO BMFF and its codec specs define as visual (VisualSampleEntry). */
const VISUAL = new Set(['avc1', 'avc2', 'avc3', 'avc4', 'hvc1', 'hev1', 'hvc2', 'hev2', 'vvc1', 'vvi1', 'av01', 'vp08', 'vp09', 'mp4v',
  'encv', 'resv', 'mjpg', 'jpeg', 'dvh1', 'dvhe', 'dva1', 'dvav', 'dav1', 's263', 'apcn', 'apch', 'apcs', 'apco', 'ap4h', 'ap4x', 'raw ',
  'rle ', 'mjp2', 'uncv', 'j2ki', 'avs3', 'avs4', 'mhc1', 'mhe1', 'lhv1', 'lhe1', 'svc1', 'svc2', 'mvc1', 'mvc2', 'mvc3', 'mvc4', 'mvd1',
  'mvd2', 'mvd3', 'mvd4', '3vc1', '3vc2', 'a3d1', 'a3d2', 'a3d3', 'a3d4', 'hvt1', 'vvs1', 'evs1', 'evc1', 'avs1', 'sdv ']);

function track(view: DataView, trak: BoxRef): IsoTrack | undefined {
  const tkhd = child(view, trak, 'tkhd');
  const mdia = child(view, trak, 'mdia');
  const mdhd = child(view, mdia, 'mdhd');
  const minf = child(view, mdia, 'minf');
  const stsd = child(view, child(view, minf, 'stbl'), 'stsd');
  if (!tkhd || !mdhd || !stsd) return undefined;
  const media = times(view, mdhd);
  const v1 = view.getUint8(tkhd.body) === 1;
  // tkhd: version/flags, times and track id, reserved, duration, reserved(8), layer, group, volume, reserved, matrix(36), width, height
  const sizeAt = tkhd.body + 4 + (v1 ? 8 + 8 + 4 + 4 + 8 : 4 + 4 + 4 + 4 + 4) + 8 + 2 + 2 + 2 + 2 + 36;
  if (!media || sizeAt + 8 > tkhd.end) return undefined;
  const entry = boxes(view, stsd.body + 8, stsd.end)[0];
  const out: IsoTrack = { ...media, track_width: view.getUint32(sizeAt) / 65536, track_height: view.getUint32(sizeAt + 4) / 65536 };
  // VisualSampleEntry: SampleEntry (6 reserved, data reference index), 16 bytes pre-defined/reserved, width, height
  if (entry && VISUAL.has(entry.type) && entry.body + 28 <= entry.end) {
    out.video = { width: view.getUint16(entry.body + 24), height: view.getUint16(entry.body + 26) };
  }
  return out;
}

/** The movie's headers, or undefined when there is no readable moov/mvhd. */
export function readIsoMovie(bytes: Uint8Array): IsoMovie | undefined {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const moov = boxes(view, 0, bytes.byteLength).find((b) => b.type === 'moov');
  const mvhd = child(view, moov, 'mvhd');
  const movie = mvhd && times(view, mvhd);
  if (!moov || !movie) return undefined;
  const videoTracks = boxes(view, moov.body, moov.end).filter((b) => b.type === 'trak')
    .map((t) => track(view, t)).filter((t): t is IsoTrack => Boolean(t?.video));
  return { ...movie, videoTracks };
}
