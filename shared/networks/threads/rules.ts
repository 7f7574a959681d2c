import type { Failure } from '../../ports/networks';
import { rejected } from '../failures';
import type { GraphError } from '../facebook/graph';

/**
 * Threads' local rules: its own sorting on top of the Graph error envelope (graph.threads.net answers `{error:
 * {message, type, code, error_subcode}}` as graph.facebook.com does): media that Threads could not fetch → media_unreachable, media that
 * does not fit → bad_media, a text over the limit → text_too_long; the rest falls to graphFailure's codes
 * (190 → reauth, 4 / 17 / 32 / 613 → rate_limited, …).
 */
export function threadsRefine(e: GraphError, message: string): Failure | undefined {
  if (/download|fetch|could not be retrieved|media_unreachable/i.test(e.message)) {
    return rejected(`${message}; Threads could not download the media (it must be a public https URL)`, 'media_unreachable');
  }
  if (/too long|character limit|exceeds.*characters/i.test(e.message)) return rejected(message, 'text_too_long');
  if (/aspect ratio|resolution|duration|bit ?rate|frame rate|file size|media type|unsupported/i.test(e.message)) return rejected(message, 'bad_media');
  return undefined;
}

/** A container's `status` ERROR with its `error_message` (FAILED_DOWNLOADING_VIDEO, INVALID_DURATION, …) as a Failure. */
export function containerError(errorMessage: string | undefined, what: string): Failure {
  const reason = errorMessage ?? 'UNKNOWN';
  const message = `threads could not process the ${what} (${reason})`;
  if (/FAILED_DOWNLOADING/i.test(reason)) return rejected(`${message}; Threads could not download it (it must be a public https URL)`, 'media_unreachable');
  if (/^INVALID_|FAILED_PROCESSING/i.test(reason)) return rejected(message, 'bad_media');
  return rejected(message);
}
