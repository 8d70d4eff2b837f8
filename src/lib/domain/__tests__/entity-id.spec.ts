import { generateEntityId } from "@medusajs/framework/utils"
import { entityId } from "../entity-id"

describe("entityId", () => {
  it("has the shape of Medusa's ids: the prefix and a ULID", () => {
    const ours = entityId("cryptopay")
    const medusa = generateEntityId(undefined, "cryptopay")
    const shape = /^cryptopay_[0-9A-HJKMNP-TV-Z]{26}$/
    expect(ours).toMatch(shape)
    expect(medusa).toMatch(shape)
  })

  it("starts with the time as a ULID does, so ids sort as they were made", () => {
    const at = Date.parse("2026-11-23T06:00:00.000Z")
    // the time part the ulid package (behind Medusa's generateEntityId) writes for that moment
    expect(entityId("x", at).slice(2, 12)).toBe("01M83FTSR0")
    const timeOf = (id: string) =>
      [...id.slice(id.indexOf("_") + 1, id.indexOf("_") + 11)].reduce(
        (ms, c) => ms * 32 + "0123456789ABCDEFGHJKMNPQRSTVWXYZ".indexOf(c),
        0
      )
    const before = Date.now()
    expect(timeOf(entityId("x"))).toBeGreaterThanOrEqual(before)
    expect(Math.abs(timeOf(generateEntityId(undefined, "x")) - timeOf(entityId("x")))).toBeLessThan(1000)
    expect(entityId("x", at + 1) > entityId("x", at)).toBe(true)
    expect(entityId("x", at + 86_400_000) > entityId("x", at + 1)).toBe(true)
  })

  it("draws 80 random bits: no repeats in 20,000 ids of one millisecond, every character used", () => {
    const at = Date.now()
    const ids = new Set<string>()
    const seen = new Set<string>()
    for (let i = 0; i < 20_000; i++) {
      const id = entityId("x", at)
      ids.add(id)
      for (const c of id.slice(12)) seen.add(c)
    }
    expect(ids.size).toBe(20_000)
    expect(seen.size).toBe(32)
  })
})
