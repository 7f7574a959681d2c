/**
 * Duration and frame size of a video, read from its container headers (not guessed from the name or the size):
 * MP4 / MOV (ISO BMFF) through shared/media/iso-bmff.ts (the moov box, wherever it is in the file). WebM/Matroska
 * is recognised but not parsed: its duration and size are reported as unknown, and checks that need them pass.
 */

export interface VideoInfo {
  container: 'mp4' | 'mov' | 'webm';
  /** Seconds; undefined when the headers do not say. */
  duration_s?: number;
  width?: number;
  height?: number;
}

type IsoBmff = typeof import('./iso-bmff');
let loaded: IsoBmff | undefined;

/**
 * The ISO BMFF reader, loaded on first use. Only functions that publish through the adapters carry it (the `publishes`
 * wiring switch, shared/wiring/declaration.ts): in any other Lambda bundle esbuild drops the require.
 */
function unwired(): never {
  throw new Error('The video parser is not wired into this function: its worker must declare `publishes: true` (functions/workers.ts)');
}

function isoBmff(): IsoBmff {
  loaded ??= process.env.SPA_WIRE_PUBLISH === 'off' ? unwired() : require('./iso-bmff') as IsoBmff;
  return loaded;
}

const ascii = (bytes: Uint8Array, offset: number, length: number) =>
  bytes.length >= offset + length ? String.fromCharCode(...bytes.subarray(offset, offset + length)) : '';

/** Reads a video's headers; undefined when the bytes are not a video container this module knows. */
export function readVideoInfo(bytes: Uint8Array): VideoInfo | undefined {
  if (bytes.length >= 4 && bytes[0] === 0x1a && bytes[1] === 0x45 && bytes[2] === 0xdf && bytes[3] === 0xa3) return { container: 'webm' };
  if (ascii(bytes, 4, 4) !== 'ftyp') return undefined;
  const container = ascii(bytes, 8, 4) === 'qt  ' ? 'mov' : 'mp4';
  const movie = isoBmff().readIsoMovie(bytes);
  if (!movie) return { container };
  const video = movie.videoTracks[0];
  const duration = movie.timescale > 0 && movie.duration > 0 ? movie.duration / movie.timescale
    : video && video.timescale > 0 && video.duration > 0 ? video.duration / video.timescale : undefined;
  const width = video?.video?.width || video?.track_width || undefined;
  const height = video?.video?.height || video?.track_height || undefined;
  return { container, ...(duration !== undefined ? { duration_s: duration } : {}), ...(width ? { width } : {}), ...(height ? { height } : {}) };
}

