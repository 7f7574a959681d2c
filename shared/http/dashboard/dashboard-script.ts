import {
  EMOJI, LIGHT_RANGES, MASTODON_MENTION_RE, MASTODON_URL_CHARACTERS, MASTODON_URL_RE, X_TRAILING, X_URL_RE, X_URL_WEIGHT,
} from '../../domain/text-length';

/**
 * The dashboard's one script (GET /dashboard/script.js), a small hand-written ES module served as it is (no build
 * step; the pages load it with `script-src 'self'`, never inline). Every page works without it; with it:
 * - Compose counts the text live in each network's own units (the numbers the server's check would give) and shows
 *   only the previews of the networks ticked;
 * - a secret shown once (a new API key) gets a Copy button;
 * - the Calendar's scheduled posts can be dragged to another day (keeping their time) or to a free slot: the drop
 *   fills the post's own move form (the keyboard path, which stays) with the new time and submits it; the days and
 *   slots under the pointer are outlined, and a polite live region says what is dragged and where it would go.
 *
 * The counting is a browser copy of shared/domain/text-length.ts `measure`: the patterns and weights are taken from
 * that module when the script is served, and test/dashboard/compose-script.test.ts runs this source against the
 * domain's counts on a corpus of hard texts (emoji, flags, CJK, combining marks, links, mentions).
 */

const re = (r: RegExp) => `new RegExp(${JSON.stringify(r.source)}, ${JSON.stringify(r.flags)})`;

/** The counting functions alone (plain declarations: `measure(unit, text)` is the entry point). */
export const COUNTING_SOURCE = `
const SEGMENTER = new Intl.Segmenter('en', { granularity: 'grapheme' });
const ENCODER = new TextEncoder();
const X_URL_RE = ${re(X_URL_RE)};
const X_TRAILING = ${re(X_TRAILING)};
const EMOJI = ${re(EMOJI)};
const LIGHT_RANGES = ${JSON.stringify(LIGHT_RANGES)};
const X_URL_WEIGHT = ${X_URL_WEIGHT};
const MASTODON_URL_RE = ${re(MASTODON_URL_RE)};
const MASTODON_MENTION_RE = ${re(MASTODON_MENTION_RE)};
const MASTODON_URL_CHARACTERS = ${MASTODON_URL_CHARACTERS};
function graphemeLength(text) { let n = 0; for (const _ of SEGMENTER.segment(text)) n++; return n; }
function codePointLength(text) { let n = 0; for (const _ of text) n++; return n; }
function utf8Length(text) { return ENCODER.encode(text).length; }
function weighOf(cp) { if (cp <= 0x10ff) return 1; return LIGHT_RANGES.some(([lo, hi]) => cp >= lo && cp <= hi) ? 1 : 2; }
function weighText(text) {
  let n = 0;
  for (const { segment } of SEGMENTER.segment(text)) {
    if (EMOJI.test(segment)) { n += 2; continue; }
    for (const ch of segment) n += weighOf(ch.codePointAt(0));
  }
  return n;
}
function xWeightedLength(text) {
  const normal = text.normalize('NFC');
  let n = 0; let last = 0;
  for (const m of normal.matchAll(X_URL_RE)) {
    const url = m[0].replace(X_TRAILING, '');
    n += weighText(normal.slice(last, m.index)) + X_URL_WEIGHT;
    last = m.index + url.length;
  }
  return n + weighText(normal.slice(last));
}
function mastodonLength(text) {
  return graphemeLength(text.replace(MASTODON_URL_RE, () => 'x'.repeat(MASTODON_URL_CHARACTERS)).replace(MASTODON_MENTION_RE, '@$1'));
}
function threadsLength(text) {
  let n = 0;
  for (const { segment } of SEGMENTER.segment(text)) n += EMOJI.test(segment) ? utf8Length(segment) : 1;
  return n;
}
function measure(unit, text) {
  switch (unit) {
    case 'threads': return threadsLength(text);
    case 'graphemes': return graphemeLength(text);
    case 'x_weighted': return xWeightedLength(text);
    case 'mastodon': return mastodonLength(text);
    case 'utf16': return text.length;
    case 'code_points': return codePointLength(text);
    case 'utf8_bytes': return utf8Length(text);
  }
  return text.length;
}
`;

/** What the page does with the counts and the copy buttons. */
const WIRING_SOURCE = `
function composeCounters() {
  const form = document.getElementById('compose');
  if (!form) return;
  const fields = { text: document.getElementById('compose-text'), title: document.getElementById('compose-title') };
  const update = () => {
    for (const out of form.querySelectorAll('[data-count-unit]')) {
      const field = fields[out.dataset.countField] || fields.text;
      const n = measure(out.dataset.countUnit, field ? field.value : '');
      out.textContent = String(n);
      const over = n > Number(out.dataset.countLimit);
      const line = out.closest('.count');
      if (line) line.classList.toggle('over', over);
      const flag = line && line.querySelector('.over-flag');
      if (flag) flag.hidden = !over;
    }
    for (const p of form.querySelectorAll('[data-preview-text]')) p.textContent = fields.text ? fields.text.value : '';
  };
  const shown = () => {
    const ticked = new Set([...form.querySelectorAll('input[name=platforms]:checked')].map((b) => b.value));
    for (const card of form.querySelectorAll('[data-preview]')) card.hidden = ticked.size > 0 && !ticked.has(card.dataset.preview);
  };
  form.addEventListener('input', update);
  form.addEventListener('change', shown);
  update();
  shown();
}
function copyButtons() {
  for (const field of document.querySelectorAll('[data-copy]')) {
    const button = document.createElement('button');
    button.type = 'button';
    button.className = 'secondary';
    button.textContent = 'Copy';
    button.setAttribute('aria-label', field.dataset.copy);
    const status = document.createElement('span');
    status.setAttribute('role', 'status');
    status.className = 'hint';
    button.addEventListener('click', async () => {
      const range = document.createRange();
      range.selectNodeContents(field);
      const selection = getSelection();
      selection.removeAllRanges();
      selection.addRange(range);
      try { await navigator.clipboard.writeText(field.textContent.trim()); status.textContent = 'Copied'; }
      catch { status.textContent = 'Selected: press Ctrl+C (⌘C) to copy'; }
    });
    field.after(button, ' ', status);
  }
}
function calendarDragAndDrop() {
  const table = document.querySelector('table.calendar');
  if (!table) return;
  const live = document.getElementById('cal-live');
  const say = (text) => { if (live) live.textContent = text; };
  let dragged = null;
  let over = null;
  const targetOf = (el) => (el && el.closest ? el.closest('li[data-slot-time], td[data-date]') : null);
  const whereOf = (target) => {
    const cell = target.closest('td[data-date]');
    const time = target.dataset.slotTime || dragged.dataset.time;
    return { local: cell.dataset.date + 'T' + time, words: cell.dataset.label + ' at ' + time + (target.dataset.slotTime ? ' (a free slot)' : '') };
  };
  const mark = (target) => {
    if (over === target) return;
    if (over) over.classList.remove('drop-over');
    over = target;
    if (target) { target.classList.add('drop-over'); say('Drop to move it to ' + whereOf(target).words + '.'); }
  };
  table.addEventListener('dragstart', (ev) => {
    const item = ev.target.closest ? ev.target.closest('[data-move]') : null;
    if (!item) return;
    dragged = item;
    ev.dataTransfer.effectAllowed = 'move';
    ev.dataTransfer.setData('text/plain', item.dataset.moveLabel || '');
    table.classList.add('dragging');
    item.classList.add('is-dragged');
    say('Dragging “' + item.dataset.moveLabel + '”, now ' + item.dataset.local.replace('T', ' at ') + '. Drop it on a day to keep its time, or on a free slot.');
  });
  // dragenter and dragover are both cancelled over a day or a free slot: that makes it the drop target
  const accept = (ev) => {
    if (!dragged) return;
    const target = targetOf(ev.target);
    if (!target) return;
    ev.preventDefault();
    ev.dataTransfer.dropEffect = 'move';
    mark(target);
  };
  table.addEventListener('dragenter', accept);
  table.addEventListener('dragover', accept);
  // anywhere else (outside the table, or on its header): nothing is outlined
  document.addEventListener('dragover', (ev) => { if (dragged && !targetOf(ev.target)) mark(null); });
  table.addEventListener('drop', (ev) => {
    const target = dragged && targetOf(ev.target);
    if (!target) return;
    ev.preventDefault();
    const where = whereOf(target);
    if (where.local === dragged.dataset.local) { say('Not moved: that is its time already.'); return; }
    const form = dragged.querySelector('form');
    form.elements.namedItem('slot').value = '';
    form.elements.namedItem('at').value = where.local;
    say('Moving it to ' + where.words + '…');
    form.requestSubmit();
  });
  table.addEventListener('dragend', () => {
    mark(null);
    table.classList.remove('dragging');
    if (dragged) dragged.classList.remove('is-dragged');
    dragged = null;
  });
}
composeCounters();
copyButtons();
calendarDragAndDrop();
export { measure };
`;

/** The module's text. */
export const dashboardScript = (): string => `// Social Publishing dashboard: live counts on Compose, copy buttons, calendar drag and drop. Pages work without it.\n${COUNTING_SOURCE}${WIRING_SOURCE}`;
