import { effectivePolicy, MerchantPolicy, SavedPolicy } from "../../lib/domain/merchant-policy"

/** How long a process uses a saved policy before reading it again (a change in the admin reaches every process within this). */
export const POLICY_CACHE_MS = 5_000

/**
 * The merchant policy in force per provider: the provider's options, overridden by what the admin
 * saved. Read from the ledger at most once per POLICY_CACHE_MS per provider; the admin's save drops
 * the process's copy at once.
 */
export class PolicyReads {
  private readonly kept = new Map<string, { at: number; policy: MerchantPolicy }>()

  constructor(
    private readonly defaults: MerchantPolicy,
    private readonly read: (providerId: string) => Promise<SavedPolicy | undefined>,
    private readonly now: () => number = Date.now
  ) {}

  async policy(providerId: string | null | undefined): Promise<MerchantPolicy> {
    if (!providerId) return this.defaults
    const kept = this.kept.get(providerId)
    if (kept && this.now() - kept.at < POLICY_CACHE_MS) return kept.policy
    const policy = effectivePolicy(this.defaults, await this.read(providerId))
    this.kept.set(providerId, { at: this.now(), policy })
    return policy
  }

  forget(providerId: string): void {
    this.kept.delete(providerId)
  }

  get optionDefaults(): MerchantPolicy {
    return this.defaults
  }
}
