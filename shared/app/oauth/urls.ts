import type { Deps } from '../deps';
import type { PlatformName } from '../../domain/platforms';

/** The service's callback for a network: the redirect URI to register in that network's developer console. */
export const redirectUri = (deps: Pick<Deps, 'settings'>, platform: PlatformName) => `${deps.settings.publicBaseUrl}/api/oauth/${platform}/callback`;
