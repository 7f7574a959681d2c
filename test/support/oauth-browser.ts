import type { Deps } from '../../shared/app/deps';
import { beginOAuth } from '../../shared/app/oauth/flow';

/**
 * What a browser does with the URL of POST /api/oauth/{platform}/url: opens our start link (which hands it the
 * nonce cookie and the network's authorize URL), then the network's authorize page, which redirects back to the
 * callback. Answers the callback's query and the nonce the browser now holds.
 */
export async function signInAtNetwork(deps: Deps, startUrl: string) {
  const u = new URL(startUrl);
  const platform = u.pathname.split('/')[3];
  const { location, nonce } = await beginOAuth(deps, platform, u.searchParams.get('start') ?? undefined);
  const res = await fetch(location, { redirect: 'manual' });
  const back = new URL(res.headers.get('location')!);
  return { status: res.status, back, query: Object.fromEntries(back.searchParams) as Record<string, string>, nonce, authorizeUrl: location };
}
