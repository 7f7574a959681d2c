import type { PlatformName } from '../domain/platforms';
import type { NetworkLimits } from '../ports/network-limits';
import type { NetworkDescriptor } from './descriptor';
import { NETWORKS } from './network-list';
import { checkAlt, checkProbed } from './media-rules';

/**
 * The NetworkLimits port from the networks' descriptors (by default the registry's): their content checks and text
 * rules, the media rules, their delete / edit / read-back facts, post links and the post options they take. No send code: every function may carry it.
 */
export function networkLimits(networks: readonly NetworkDescriptor[] = NETWORKS): NetworkLimits {
  const byName = new Map(networks.map((d) => [d.name, d]));
  const of = (platform: PlatformName): NetworkDescriptor => {
    const d = byName.get(platform);
    if (!d) throw new Error(`${platform} is not in the registry of networks (shared/networks/network-list.ts)`);
    return d;
  };
  return {
    checkContent: (platform, content, credentials) => of(platform).check(content, credentials),
    textRule: (platform) => of(platform).text,
    checkMedia: (platform, media) => checkAlt(platform, of(platform).media, media) ?? checkProbed(platform, of(platform).media, media),
    manage: (platform) => of(platform).manage ?? { delete: false, edit: false },
    readBack: (platform) => of(platform).readBack,
    postRef: (platform) => of(platform).postRef,
    optionNetworks: (option) => networks.filter((d) => d.options?.includes(option)).map((d) => d.name),
  };
}
