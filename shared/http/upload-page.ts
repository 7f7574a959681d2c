import { escapeHtml } from './reply';
import { MAX_UPLOAD_BYTES, MEDIA_CONTENT_TYPES, type MediaContentType } from '../domain/media';

/**
 * The hosted upload page (GET /upload/{token}): one self-contained HTML document (no external assets) where a
 * person picks a file and uploads it straight to storage with a progress bar, then is told it arrived: whoever sent
 * the link learns it by the link (MCP get_media_upload, GET /api/media/upload-link/{token}); nothing is to be copied back.
 * Accessible: every control has a label, native keyboard behaviour, a live status region, focus moves to the result.
 * The script runs under a nonce-based Content-Security-Policy; fetches go only to this origin and to storage.
 * Its two requests to this service carry the page's per-page token (X-Form-Token, checked against the page's
 * HttpOnly cookie scoped to the link's API path; shared/http/form-guard.ts).
 */

const LABELS: Record<MediaContentType, string> = {
  'image/jpeg': 'JPEG', 'image/png': 'PNG', 'image/webp': 'WebP', 'image/gif': 'GIF',
  'video/mp4': 'MP4', 'video/quicktime': 'MOV', 'video/webm': 'WebM',
};

export interface UploadPageInput {
  token: string;
  /** The per-page token (newFormToken) the page's requests send back. */
  formToken: string;
  contentType?: MediaContentType;
  note?: string;
  expiresAt: Date;
  nonce: string;
  /** The account's white label: its name, and for Pro a small "powered by" line. */
  mark?: { name: string; poweredBy?: string };
}

/** The Content-Security-Policy of the page: its own nonce, and connections to this origin and the storage origin. */
export function uploadPageCsp(nonce: string, storageOrigin: string): string {
  return [
    "default-src 'none'", `script-src 'nonce-${nonce}'`, `style-src 'nonce-${nonce}'`, `connect-src 'self' ${storageOrigin}`,
    "img-src 'none'", "base-uri 'none'", "form-action 'none'", "frame-ancestors 'none'",
  ].join('; ');
}

/** The API path of an upload link's page requests: the per-page token cookie is sent only there. */
export const uploadLinkApiPath = (token: string) => `/api/media/upload-link/${token}/`;

export function uploadPage(input: UploadPageInput): string {
  const types = input.contentType ? [input.contentType] : MEDIA_CONTENT_TYPES;
  const accepted = types.map((t) => LABELS[t]).join(', ');
  const cfg = {
    types, accepted, maxBytes: MAX_UPLOAD_BYTES,
    urlEndpoint: `${uploadLinkApiPath(input.token)}url`,
    completeEndpoint: `${uploadLinkApiPath(input.token)}complete`,
    formToken: input.formToken,
  };
  // JSON inside a non-executed script element: escape "<" so the text cannot close the element.
  const cfgJson = JSON.stringify(cfg).replace(/</g, '\\u003c');
  const expires = input.expiresAt.toISOString().replace('T', ' ').slice(0, 16) + ' UTC';
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer"><title>Upload a file</title>
<style nonce="${input.nonce}">
body{font-family:system-ui,sans-serif;max-width:40rem;margin:3rem auto;padding:0 1rem;line-height:1.5;color:#1a1a1a}
label{display:block;font-weight:600;margin:.5rem 0 .25rem}
input[type=file]{font:inherit;padding:.4rem 0}
button{font:inherit;padding:.5rem 1.2rem;margin-top:.75rem;border:2px solid #1a4dbf;background:#1a4dbf;color:#fff;border-radius:6px;cursor:pointer}
button:disabled{opacity:.6;cursor:default}
:focus-visible{outline:3px solid #f0a400;outline-offset:2px}
progress{width:100%;height:1.25rem}
.note{background:#f3f6fc;border-left:4px solid #1a4dbf;padding:.5rem .75rem;white-space:pre-wrap}
.hint{color:#4a4a4a;font-size:.95rem}
code{background:#f3f3f3;padding:.2rem .4rem;border-radius:4px;word-break:break-all}
.mark{font-weight:700}.powered{font-size:.85rem;color:#4a4a4a}
</style></head><body>${input.mark ? `<header><p class="mark">${escapeHtml(input.mark.name)}</p>${input.mark.poweredBy ? `<p class="powered">powered by ${escapeHtml(input.mark.poweredBy)}</p>` : ''}</header>` : ''}<main>
<h1>Upload a file</h1>
${input.note ? `<p class="note">${escapeHtml(input.note)}</p>` : ''}
<form id="upload-form">
<label for="file">Choose a file</label>
<input id="file" name="file" type="file" accept="${types.join(',')}" aria-describedby="hint">
<p id="hint" class="hint">Accepted: ${accepted}, at most 50 MB. This link works for one file and expires at ${escapeHtml(expires)}.</p>
<button id="upload" type="submit">Upload</button>
</form>
<div id="progress-box" hidden>
<label for="progress">Upload progress</label>
<progress id="progress" max="100" value="0">0 %</progress>
<p id="percent" aria-hidden="true">0 %</p>
</div>
<p id="status" role="status" aria-live="polite"></p>
<section id="done" hidden tabindex="-1" aria-labelledby="done-title">
<h2 id="done-title">Upload complete</h2>
<p>The file arrived. Whoever sent you this link can use it now: there is nothing to copy or send back, and you can close this page.</p>
</section>
<noscript><p>This page needs JavaScript to upload the file.</p></noscript>
</main>
<script type="application/json" id="upload-config">${cfgJson}</script>
<script nonce="${input.nonce}">
(function () {
  var cfg = JSON.parse(document.getElementById('upload-config').textContent);
  var form = document.getElementById('upload-form'), input = document.getElementById('file'), button = document.getElementById('upload');
  var box = document.getElementById('progress-box'), bar = document.getElementById('progress'), percent = document.getElementById('percent');
  var status = document.getElementById('status'), done = document.getElementById('done');
  function say(text) { status.textContent = text; }
  function progress(p) { bar.value = p; bar.textContent = p + ' %'; percent.textContent = p + ' %'; }
  function busy(on) { button.disabled = on; input.disabled = on; }
  function json(res) {
    return res.text().then(function (text) {
      var body = {};
      try { body = text ? JSON.parse(text) : {}; } catch (e) { body = {}; }
      if (!res.ok) throw new Error(body.error || ('the server answered HTTP ' + res.status));
      return body;
    });
  }
  function post(url, body) {
    return fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', 'x-form-token': cfg.formToken }, body: JSON.stringify(body), credentials: 'same-origin' }).then(json);
  }
  function put(upload, file) {
    return new Promise(function (resolve, reject) {
      var xhr = new XMLHttpRequest();
      xhr.open(upload.method || 'PUT', upload.upload_url);
      xhr.setRequestHeader('Content-Type', upload.headers['content-type']);
      xhr.upload.onprogress = function (e) { if (e.lengthComputable && e.total > 0) progress(Math.min(99, Math.floor(e.loaded * 100 / e.total))); };
      xhr.onload = function () {
        if (xhr.status >= 200 && xhr.status < 300) resolve();
        else reject(new Error('storage refused the file (HTTP ' + xhr.status + ')'));
      };
      xhr.onerror = function () { reject(new Error('the connection to storage failed')); };
      xhr.send(file);
    });
  }
  form.addEventListener('submit', function (event) {
    event.preventDefault();
    var file = input.files && input.files[0];
    if (!file) { say('Choose a file first.'); input.focus(); return; }
    if (cfg.types.indexOf(file.type) < 0) { say('This type of file (' + (file.type || 'unknown') + ') is not accepted. Accepted: ' + cfg.accepted + '.'); input.focus(); return; }
    if (file.size === 0) { say('The file is empty.'); input.focus(); return; }
    if (file.size > cfg.maxBytes) { say('The file is larger than 50 MB.'); input.focus(); return; }
    busy(true);
    box.hidden = false;
    progress(0);
    say('Uploading ' + file.name + '…');
    post(cfg.urlEndpoint, { content_type: file.type, size_bytes: file.size })
      .then(function (upload) {
        return put(upload, file).then(function () {
          say('Checking the file…');
          return post(cfg.completeEndpoint, { path: upload.path });
        });
      })
      .then(function (result) {
        progress(100);
        form.hidden = true;
        done.hidden = false;
        say('Upload complete.');
        done.focus();
      })
      .catch(function (err) {
        busy(false);
        box.hidden = true;
        say('The upload did not work: ' + err.message + '. You can try again.');
      });
  });
})();
</script></body></html>`;
}
