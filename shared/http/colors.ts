/**
 * Colours of the hosted and dashboard pages: WCAG 2 contrast, and an owner's accent colour made readable (white text
 * on it and it as link text on white both need 4.5:1), so a light brand colour never makes a button unreadable.
 */

const channel = (v: number) => { const c = v / 255; return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4; };

/** Relative luminance of #rrggbb. */
export function luminance(hex: string): number {
  const n = parseInt(hex.slice(1), 16);
  return 0.2126 * channel((n >> 16) & 255) + 0.7152 * channel((n >> 8) & 255) + 0.0722 * channel(n & 255);
}

/** Contrast ratio of two #rrggbb colours (1 to 21). */
export function contrast(a: string, b: string): number {
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x);
  return (hi + 0.05) / (lo + 0.05);
}

export const DEFAULT_ACCENT = '#0b57d0';

/**
 * The accent to paint with: a valid #rrggbb darkened step by step until white on it reaches 4.5:1 (the hue is
 * kept); anything else the default blue.
 */
export function readableAccent(accent: string | undefined): string {
  if (!accent || !/^#[0-9a-fA-F]{6}$/.test(accent)) return DEFAULT_ACCENT;
  let n = parseInt(accent.slice(1), 16);
  let hex = accent.toLowerCase();
  for (let i = 0; i < 40 && contrast(hex, '#ffffff') < 4.5; i++) {
    const r = Math.floor(((n >> 16) & 255) * 0.92); const g = Math.floor(((n >> 8) & 255) * 0.92); const b = Math.floor((n & 255) * 0.92);
    n = (r << 16) | (g << 8) | b;
    hex = `#${n.toString(16).padStart(6, '0')}`;
  }
  return hex;
}
