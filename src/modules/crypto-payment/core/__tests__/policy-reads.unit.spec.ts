import { PolicyReads, POLICY_CACHE_MAX_PROVIDERS, POLICY_CACHE_MS } from "../policy-reads"
import type { MerchantPolicy } from "../../../../lib/domain/merchant-policy"

const defaults: MerchantPolicy = { underpaymentTolerancePercent: 0, latePayments: "flag" }

function setup() {
  let clock = 1_000_000
  const reads: string[] = []
  const policies = new PolicyReads(
    defaults,
    async (providerId) => {
      reads.push(providerId)
      return undefined
    },
    () => clock
  )
  return { policies, reads, tick: (ms: number) => (clock += ms) }
}

describe("policy reads", () => {
  it("reads a provider's saved policy once per POLICY_CACHE_MS", async () => {
    const { policies, reads, tick } = setup()
    await policies.policy("pp_crypto_crypto")
    tick(POLICY_CACHE_MS - 1)
    await policies.policy("pp_crypto_crypto")
    expect(reads).toHaveLength(1)
    tick(1)
    await policies.policy("pp_crypto_crypto")
    expect(reads).toHaveLength(2)
  })

  it("keeps at most POLICY_CACHE_MAX_PROVIDERS providers, the oldest going first", async () => {
    const { policies, reads } = setup()
    for (let i = 0; i <= POLICY_CACHE_MAX_PROVIDERS; i++) await policies.policy(`pp_crypto_${i}`)
    expect(policies.size).toBe(POLICY_CACHE_MAX_PROVIDERS)
    await policies.policy(`pp_crypto_${POLICY_CACHE_MAX_PROVIDERS}`)
    expect(reads).toHaveLength(POLICY_CACHE_MAX_PROVIDERS + 1)
    await policies.policy("pp_crypto_0")
    expect(reads).toHaveLength(POLICY_CACHE_MAX_PROVIDERS + 2)
  })

  it("drops the expired policies as others are read", async () => {
    const { policies, tick } = setup()
    for (let i = 0; i < 10; i++) await policies.policy(`pp_crypto_${i}`)
    tick(POLICY_CACHE_MS)
    await policies.policy("pp_crypto_new")
    expect(policies.size).toBe(1)
  })
})
