import type { Movie } from 'mp4box';

/**
 * Duration and frame size of a video, read from its container headers (not guessed from the name or the size):
 * MP4 / MOV (ISO BMFF) through mp4box (GPAC's MP4Box.js; the moov box, wherever it is in the file). WebM/Matroska
 * is recognised but not parsed: its duration and size are reported as unknown, and checks that need them pass.
 */

export interface VideoInfo {
  container: 'mp4' | 'mov' | 'webm';
  /** Seconds; undefined when the headers do not say. */
  duration_s?: number;
  width?: number;
  height?: number;
}

type Mp4box = typeof import('mp4box');
let loaded: Mp4box | undefined;

/**
 * mp4box, loaded on first use. Only functions that publish through the adapters carry it (the `publishes` wiring
 * switch, shared/wiring/declaration.ts): in any other Lambda bundle esbuild drops the require.
 */
function unwired(): never {
  throw new Error('The video parser is not wired into this function: its worker must declare `publishes: true` (infra/workers.ts)');
}

function mp4box(): Mp4box {
  if (!loaded) {
    loaded = process.env.SPA_WIRE_PUBLISH === 'off' ? unwired() : require('mp4box') as Mp4box;
    // mp4box prints parse errors to the console at every level; a file it cannot read is simply "unknown" here
    loaded.Log.error = () => undefined;
  }
  return loaded;
}

const ascii = (bytes: Uint8Array, offset: number, length: number) =>
  bytes.length >= offset + length ? String.fromCharCode(...bytes.subarray(offset, offset + length)) : '';

/** Reads a video's headers; undefined when the bytes are not a video container this module knows. */
export function readVideoInfo(bytes: Uint8Array): VideoInfo | undefined {
  if (bytes.length >= 4 && bytes[0] === 0x1a && bytes[1] === 0x45 && bytes[2] === 0xdf && bytes[3] === 0xa3) return { container: 'webm' };
  if (ascii(bytes, 4, 4) !== 'ftyp') return undefined;
  const container = ascii(bytes, 8, 4) === 'qt  ' ? 'mov' : 'mp4';
  const movie = parseMovie(bytes);
  if (!movie) return { container };
  const video = movie.videoTracks[0];
  const duration = movie.timescale > 0 && movie.duration > 0 ? movie.duration / movie.timescale
    : video && video.timescale > 0 && video.duration > 0 ? video.duration / video.timescale : undefined;
  const width = video?.video?.width || video?.track_width || undefined;
  const height = video?.video?.height || video?.track_height || undefined;
  return { container, ...(duration !== undefined ? { duration_s: duration } : {}), ...(width ? { width } : {}), ...(height ? { height } : {}) };
}

function parseMovie(bytes: Uint8Array): Movie | undefined {
  let movie: Movie | undefined;
  try {
    const { createFile, MP4BoxBuffer } = mp4box();
    const file = createFile();
    file.onReady = (info) => { movie = info; };
    file.onError = () => undefined;
    const copy = new Uint8Array(bytes).buffer;
    file.appendBuffer(MP4BoxBuffer.fromArrayBuffer(copy, 0), true);
    file.flush();
  } catch {
    return movie;
  }
  return movie;
}
