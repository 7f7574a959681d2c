import * as z from 'zod';
import { httpHandler } from '../../shared/http/handler';
import { postLifecycleRoutes as routes } from '../routes/post-lifecycle';
import { AppError } from '../../shared/domain/errors';
import { dashboardShell, pageReply } from '../../shared/http/dashboard/layout';
import { parseForm } from '../../shared/http/dashboard/forms';
import { changeResultBody } from '../../shared/http/dashboard/post-change-views';
import { deletePost, editPost } from '../../shared/app/post-changes/request-change';
import { escapeHtml as e } from '../../shared/http/reply';

const ChangeForm = z.discriminatedUnion('action', [
  z.strictObject({ action: z.literal('delete'), confirm: z.literal('yes') }),
  z.strictObject({ action: z.literal('edit'), text: z.string().min(1).max(100_000) }),
]);

/** The post page's Edit and Delete buttons: the same use cases as PATCH / DELETE /api/posts/{id}, one result per network. */
export const handler = httpHandler(routes.postDashboardPostChange, async (req) => {
  const p = req.principal;
  const form = parseForm(req, ChangeForm);
  const shell = (body: string) => dashboardShell({ title: `Post ${req.params.id}`, active: 'posts', csrf: p.csrf, email: p.account.email, body });
  try {
    const out = form.action === 'delete'
      ? await deletePost(req.deps, p.account.id, req.params.id)
      : await editPost(req.deps, p.account.id, req.params.id, { text: form.text });
    return pageReply(200, shell(changeResultBody(req.params.id, form.action, out)));
  } catch (err) {
    if (!(err instanceof AppError) || err.status !== 409) throw err;
    return pageReply(409, shell(`<p><a href="/dashboard/posts/${e(req.params.id)}">← Back to the post</a></p><h1>Not changed</h1><p role="alert">${e(err.message)}</p>`));
  }
});
