import { effectivePolicy, MerchantPolicy, SavedPolicy } from "../../../lib/domain/merchant-policy"
import { BoundedMap } from "../../../lib/runtime/bounded-map"

/** How long a process uses a saved policy before reading it again (a change in the admin reaches every process within this). */
export const POLICY_CACHE_MS = 5_000

/**
 * Providers whose policy a process keeps: a shop registers one crypto provider, a few at most, but
 * the id comes from ledger rows, so the map is bounded all the same; one more is one more read.
 */
export const POLICY_CACHE_MAX_PROVIDERS = 64

/**
 * The merchant policy in force per provider: the provider's options, overridden by what the admin
 * saved. Read from the ledger at most once per POLICY_CACHE_MS per provider; the admin's save drops
 * the process's copy at once.
 */
export class PolicyReads {
  private readonly kept: BoundedMap<string, MerchantPolicy>

  constructor(
    private readonly defaults: MerchantPolicy,
    private readonly read: (providerId: string) => Promise<SavedPolicy | undefined>,
    now: () => number = Date.now
  ) {
    this.kept = new BoundedMap({ maxEntries: POLICY_CACHE_MAX_PROVIDERS, maxAgeMs: POLICY_CACHE_MS }, () => now())
  }

  async policy(providerId: string | null | undefined): Promise<MerchantPolicy> {
    if (!providerId) return this.defaults
    const kept = this.kept.get(providerId)
    if (kept) return kept
    const policy = effectivePolicy(this.defaults, await this.read(providerId))
    this.kept.set(providerId, policy)
    return policy
  }

  forget(providerId: string): void {
    this.kept.delete(providerId)
  }

  get size(): number {
    return this.kept.size
  }

  get optionDefaults(): MerchantPolicy {
    return this.defaults
  }
}
