/** A 1×1 PNG: the WordPress simulator's /files/cover.png (featured-image tests) and the sandbox's sample.png. */
export const PNG_BYTES = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
  'base64',
);

/** Sample media the sandbox serves at /sandbox/media/<name>, for posts to networks that need a photo or a video. */
export const SAMPLE_MEDIA: Record<string, { type: string; bytes: Buffer }> = {
  'sample.png': { type: 'image/png', bytes: PNG_BYTES },
  'sample.jpg': { type: 'image/jpeg', bytes: Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0x00, 0x10, 0x4a, 0x46, 0x49, 0x46, 0x00, 0x01]), Buffer.alloc(500), Buffer.from([0xff, 0xd9])]) },
  'sample.mp4': { type: 'video/mp4', bytes: Buffer.concat([Buffer.from('000000186674797069736f6d0000020069736f6d69736f32', 'hex'), Buffer.alloc(4000)]) },
};
