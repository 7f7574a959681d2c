/**
 * The server's icon (MCP 2025-11-25 `icons` on the implementation, tools and prompts): a small inline SVG, so a
 * client shows it without fetching anything.
 */
const SVG = '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 64 64"><rect width="64" height="64" rx="14" fill="#1d4ed8"/>'
  + '<circle cx="20" cy="32" r="7" fill="#fff"/><circle cx="44" cy="18" r="7" fill="#fff"/><circle cx="44" cy="46" r="7" fill="#fff"/>'
  + '<path d="M20 32 44 18M20 32l24 14" stroke="#fff" stroke-width="4"/></svg>';

export const ICONS = [{ src: `data:image/svg+xml;base64,${Buffer.from(SVG).toString('base64')}`, mimeType: 'image/svg+xml', sizes: ['any'] }];
