/**
 * The favicon of every page (dashboard, hosted pages): a small SVG badge inline as a data: URL, so nothing is fetched
 * (no 404 on /favicon.ico) and the CSPs, whose img-src allows data:, need no change.
 */
export const FAVICON = '<link rel="icon" type="image/svg+xml" href="data:image/svg+xml,' + encodeURIComponent(
  '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32"><rect width="32" height="32" rx="7" fill="#0b57d0"/>' +
  '<path d="M9 16h14M17 10l6 6-6 6" stroke="#fff" stroke-width="3.5" fill="none" stroke-linecap="round" stroke-linejoin="round"/></svg>') + '">';
