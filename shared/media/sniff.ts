/**
 * Recognises an image or video from its first bytes (magic numbers): JPEG, PNG, GIF, WebP, MP4/MOV (an ISO BMFF
 * 'ftyp' box at offset 4; brand 'qt  ' → video/quicktime; HEIF/AVIF brands → image), WebM/Matroska. Undefined
 * when none matches.
 */
export function sniffKind(bytes: Uint8Array): { kind: 'image' | 'video'; content_type: string } | undefined {
  const at = (offset: number, sig: readonly number[]): boolean =>
    bytes.length >= offset + sig.length && sig.every((b, i) => bytes[offset + i] === b);
  const ascii = (offset: number, length: number): string =>
    bytes.length >= offset + length ? String.fromCharCode(...bytes.subarray(offset, offset + length)) : '';
  if (at(0, [0xff, 0xd8, 0xff])) return { kind: 'image', content_type: 'image/jpeg' };
  if (at(0, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return { kind: 'image', content_type: 'image/png' };
  if (ascii(0, 6) === 'GIF87a' || ascii(0, 6) === 'GIF89a') return { kind: 'image', content_type: 'image/gif' };
  if (ascii(0, 4) === 'RIFF' && ascii(8, 4) === 'WEBP') return { kind: 'image', content_type: 'image/webp' };
  if (at(0, [0x1a, 0x45, 0xdf, 0xa3])) return { kind: 'video', content_type: 'video/webm' };
  if (ascii(4, 4) === 'ftyp') {
    const brand = ascii(8, 4);
    if (brand === 'qt  ') return { kind: 'video', content_type: 'video/quicktime' };
    if (brand === 'avif' || brand === 'avis') return { kind: 'image', content_type: 'image/avif' };
    if (['heic', 'heix', 'heim', 'heis'].includes(brand)) return { kind: 'image', content_type: 'image/heic' };
    if (brand === 'mif1' || brand === 'msf1') return { kind: 'image', content_type: 'image/heif' };
    if (brand.startsWith('M4A') || brand.startsWith('M4B') || brand.startsWith('M4P')) return undefined; // audio
    return { kind: 'video', content_type: 'video/mp4' };
  }
  return undefined;
}
