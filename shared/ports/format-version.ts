import * as z from 'zod';
import { FORMAT_VERSION } from '../domain/format-version';

export { FORMAT_VERSION, NewerFormatError, isNewerFormat } from '../domain/format-version';

/** The `v` field of a message shape: absent (the previous format) reads as the current one; a writer must set it. */
export const formatVersion = z.number().int().min(1).max(FORMAT_VERSION).default(FORMAT_VERSION);
