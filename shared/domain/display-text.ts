/**
 * Display fields (brand names, key names, notes shown on hosted pages) are shown to people in dashboards, webhook
 * labels and pages: they refuse control characters (C0, DEL, C1) and the bidirectional overrides and isolates that
 * can make text read differently from what it is (U+202A–U+202E, U+2066–U+2069, U+200E/U+200F, U+061C).
 */
// eslint-disable-next-line no-control-regex
const UNSAFE = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/;
// eslint-disable-next-line no-control-regex
const UNSAFE_ONE_LINE = /[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/;

/** True when `text` (one line; `multiline` allows tab and line feed) has no control or bidi-override character. */
export function isSafeDisplayText(text: string, multiline = false): boolean {
  return !(multiline ? UNSAFE : UNSAFE_ONE_LINE).test(text);
}

export const UNSAFE_DISPLAY_TEXT = 'must not contain control characters or bidirectional-override characters';
