import type { getPost } from '../../app/publish/queries';
import type { ChangeResponse } from '../../app/post-changes/request-change';
import type { NetworkLimits } from '../../ports/network-limits';
import { isPlatformName } from '../../domain/platforms';
import { escapeHtml as e } from '../reply';
import { networkName } from '../network-icons';
import { csrfField } from './layout';

type PostView = Awaited<ReturnType<typeof getPost>>;

const published = (p: PostView) => p.results.filter((r) => r.ok && r.status === 'published' && isPlatformName(r.platform)).map((r) => r.platform);
const list = (names: string[]) => (names.length ? names.map(e).join(', ') : 'none');

/**
 * The post page's "Edit or delete" section: the new text (prefilled) and a delete that must be confirmed with a
 * checkbox (no script: the page's CSP allows none). Each form says on which of the post's networks it works.
 */
export function postChangeForms(p: PostView, csrf: string, networks: Pick<NetworkLimits, 'manage'>): string {
  const live = published(p);
  if (!live.length) return '<h2>Edit or delete</h2><p>Nothing of this post is published on a network, so there is nothing to edit or delete.</p>';
  const can = (kind: 'edit' | 'delete') => live.filter((n) => isPlatformName(n) && networks.manage(n)[kind]);
  const action = `/dashboard/posts/${e(p.id)}/change`;
  return '<h2>Edit or delete</h2>' +
    `<form method="post" action="${action}" class="card" aria-labelledby="edit-h">${csrfField(csrf)}<input type="hidden" name="action" value="edit">` +
    `<h3 id="edit-h">Edit the text</h3><p class="hint" id="edit-where">Edits on: ${list(can('edit'))}. Other networks answer not supported: delete the post there and post again.</p>` +
    `<label for="edit-text">New text</label><textarea id="edit-text" name="text" rows="4" required aria-describedby="edit-where">${e(p.text ?? '')}</textarea>` +
    '<p><button type="submit">Edit on the networks</button></p></form>' +
    `<form method="post" action="${action}" class="card" aria-labelledby="delete-h">${csrfField(csrf)}<input type="hidden" name="action" value="delete">` +
    `<h3 id="delete-h">Delete from the networks</h3><p class="hint" id="delete-where">Deletes on: ${list(can('delete'))}. This cannot be undone.</p>` +
    '<p><label class="inline" for="delete-confirm"><input type="checkbox" id="delete-confirm" name="confirm" value="yes" required aria-describedby="delete-where"> ' +
    'Yes, delete this post from its networks</label></p>' +
    '<p><button type="submit" class="danger">Delete from the networks</button></p></form>';
}

/** What a delete or an edit from the dashboard did, network by network, with the way back to the post. */
export function changeResultBody(postId: string, kind: 'delete' | 'edit', out: ChangeResponse): string {
  const rows = out.results.map((r) => `<tr><th scope="row">${networkName(r.platform)}</th><td>${e(r.status)}</td>` +
    `<td>${r.ok ? '' : `${e(r.code ?? '')}${r.what ? `: ${e(r.what)}` : ''}${r.fix ? ` <span class="hint">${e(r.fix)}</span>` : ''}`}</td></tr>`).join('');
  return `<p><a href="/dashboard/posts/${e(postId)}">← Back to the post</a></p><h1>${kind === 'delete' ? 'Delete' : 'Edit'}: one result per network</h1>` +
    `<table><thead><tr><th scope="col">Network</th><th scope="col">Status</th><th scope="col">What happened</th></tr></thead><tbody>${rows}</tbody></table>`;
}
